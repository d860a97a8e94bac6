/** The section's heading: the topic card's name (SPEC §2). */
export const knowledgeSectionTitle = 'Dental & Tx Knowledgement';

/** The empty state, also shown when a call fails (SPEC §8: no error message here). */
export const nothingToShow = 'Nothing to show right now.';

/** The heading while the topic is unknown: the topic card's name (SPEC §2, spelled so). */
export const supplierSectionTitle = 'Oral Hyglene Suppliers Knowledgement';

/** The empty state, also shown when a call fails (SPEC §8: no error message here). */
export const nothingToShow = 'Nothing to show right now.';

/** The section's heading: the topic card's name (SPEC §2). */
export const knowledgeSectionTitle = 'Dental & Tx Knowledgement';

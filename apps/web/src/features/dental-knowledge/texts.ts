/** The section's heading: the topic card's name (docs/product/general.md#topic-cards). */
export const knowledgeSectionTitle = 'Dental & Tx Knowledgement';

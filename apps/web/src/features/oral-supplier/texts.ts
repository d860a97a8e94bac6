/** The heading while the topic is unknown: the topic card's name (SPEC §2, spelled so). */
export const supplierSectionTitle = 'Oral Hyglene Suppliers Knowledgement';

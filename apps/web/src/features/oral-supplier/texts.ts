/** The heading while the topic is unknown: the topic card's name
 *  (docs/product/general.md#topic-cards, spelled so). */
export const supplierSectionTitle = 'Oral Hyglene Suppliers Knowledgement';

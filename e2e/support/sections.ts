/** The seven topic cards (docs/product/general.md#topic-cards; names spelled as given there) and
 *  their routes. */
export const topicCards = [
  { name: 'X-rays and Photos Storage', path: '/oral-photo' },
  { name: 'Dental AI', path: '/dental-ai' },
  { name: 'Dental & Tx Knowledgement', path: '/dental-knowledge' },
  { name: 'Appointments Remind & History', path: '/appointments' },
  { name: 'Medical or Ins. Records Storage', path: '/medical-records' },
  { name: 'Oral Hyglene Suppliers Knowledgement', path: '/oral-supplier' },
  { name: 'Virtual Consultation', path: '/virtual-consultation' },
] as const;

/** The seven topic cards of SPEC §2 (names spelled as the spec gives them) and their routes. */
export const topicCards = [
  { name: 'X-rays and Photos Storage', path: '/oral-photo' },
  { name: 'Dental AI', path: '/dental-ai' },
  { name: 'Dental & Tx Knowledgement', path: '/dental-knowledge' },
  { name: 'Appointments Remind & History', path: '/appointments' },
  { name: 'Medical or Ins. Records Storage', path: '/medical-records' },
  { name: 'Oral Hyglene Suppliers Knowledgement', path: '/oral-supplier' },
  { name: 'Virtual Consultation', path: '/virtual-consultation' },
] as const;

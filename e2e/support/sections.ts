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

/** Every section route a signed-in patient reaches from home. */
export const sectionPaths = ['/membership', ...topicCards.map((card) => card.path)];

/** The text of the shared page a section shows until its issue builds it (ui-contract.md). */
export const sectionUnavailableText = 'This section is not available yet.';

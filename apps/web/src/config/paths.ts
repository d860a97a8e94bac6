/**
 * Every screen's path, in one table (docs/product/general.md#routes): the router
 * matches these and every link and navigation builds its target here, so a path changes in one
 * place. A screen with a parameter is a function; the router calls it with `:name` to get its
 * pattern, which is why the parameters are not encoded (ids and slugs are URL-safe).
 */
export const paths = {
  home: '/',
  login: '/login',
  signup: '/signup',
  forgetPassword: '/forget-password',
  updatePassword: '/update-password',
  /** The e-mailed link that confirms an address (public). */
  confirmEmail: '/confirm-email',
  /** Where Google, Apple and Facebook send the browser back after sign-in (public). */
  authCallback: '/auth/callback',
  account: '/account',
  accountActivity: '/account/activity',
  accountSecurity: '/account/security',
  /** The member's receipts; the purchase e-mail links here (docs/product/receipts.md). */
  accountReceipts: '/account/receipts',
  /** The member's share links, with their openings and Revoke (docs/product/sharing.md). */
  sharedLinks: '/account/shared-links',
  /** A share link's page for its recipient (public); the server serves it as `/s/{token}`. */
  sharedView: (token: string) => `/s/${token}`,
  membership: '/membership',
  oralPhotos: '/oral-photo',
  oralPhotoAdd: '/oral-photo/add',
  oralPhotoEdit: (oralPhotoId: string) => `/oral-photo/${oralPhotoId}/edit`,
  /** 'Take photos': the camera guides five standard views (docs/product/records.md#guided-capture). */
  oralPhotoCapture: '/oral-photo/capture',
  /** One guided capture's five photos, compared with the set before it. */
  oralPhotoSet: (setId: string) => `/oral-photo/sets/${setId}`,
  /** The tooth chart; a tooth's own timeline is `toothTimeline`. */
  toothChart: '/oral-photo/teeth',
  toothTimeline: (tooth: number | string) => `/oral-photo/teeth/${String(tooth)}`,
  appointments: '/appointments',
  appointmentAdd: '/appointments/add',
  appointmentEdit: (appointmentId: string) => `/appointments/${appointmentId}/edit`,
  medicalRecords: '/medical-records',
  medicalRecordAdd: '/medical-records/add',
  medicalRecord: (medicalRecordId: string) => `/medical-records/${medicalRecordId}`,
  dentalKnowledge: '/dental-knowledge',
  knowledgeArticle: (knowledgeId: string) => `/dental-knowledge/${knowledgeId}`,
  oralSuppliers: '/oral-supplier',
  oralSupplier: (supplierId: string) => `/oral-supplier/${supplierId}`,
  /** Buy on a supplier page: the order form of its products (docs/product/shop.md). */
  supplierOrder: (supplierId: string) => `/oral-supplier/${supplierId}/order`,
  orders: '/orders',
  /** The API's checkout sends the browser back here (`?payment=paid|cancelled`). */
  order: (orderId: string) => `/orders/${orderId}`,
  /** Points and the ledger of every change, linked from the Profile. */
  points: '/account/points',
  virtualConsultation: '/virtual-consultation',
  reservationRecord: '/virtual-consultation/reservation-record',
  consultationBooking: '/virtual-consultation/book',
  /** Conversations with the practice (docs/product/messages.md). */
  messages: '/messages',
  messageNew: '/messages/new',
  messageThread: (threadId: string) => `/messages/${threadId}`,
  /** A dentist's reviews of the member's photos (docs/product/photo-reviews.md); the API's
   *  notices link to `/reviews/{id}`. */
  reviews: '/reviews',
  reviewNew: '/reviews/new',
  /** 'Ask a dentist to review' for one photo or X-ray, or one Dental AI result. */
  reviewAsk: (subject: { photo: string } | { dental_ai: string }) =>
    'photo' in subject
      ? `/reviews/new?photo=${subject.photo}`
      : `/reviews/new?dental_ai=${subject.dental_ai}`,
  review: (reviewId: string) => `/reviews/${reviewId}`,
  /** PDF reports of a period of the record (docs/product/reports.md). */
  reports: '/reports',
  dentalAi: '/dental-ai',
  dentalAiResult: (resultId: string) => `/dental-ai/result/${resultId}`,
} as const;

/** The console's screens, all under /clinic/ (docs/decisions/clinic-console.md): the server
 *  answers clinic.html for them, so the patient's app never loads their code. */
export const clinicPaths = {
  today: '/clinic',
  history: '/clinic/history',
  summary: (consultationId: string) => `/clinic/consultations/${consultationId}/summary`,
  hours: '/clinic/hours',
  patients: '/clinic/patients',
  patient: (patientId: string) => `/clinic/patients/${patientId}`,
  messages: '/clinic/messages',
  message: (threadId: string) => `/clinic/messages/${threadId}`,
  reviews: '/clinic/reviews',
  review: (reviewId: string) => `/clinic/reviews/${reviewId}`,
  staff: '/clinic/staff',
  practitioners: '/clinic/practitioners',
  form: '/clinic/form',
  signIn: '/clinic/sign-in',
  invitation: '/clinic/invitation',
} as const;

import { z } from 'zod';
import { httpUrl, optional } from './fields';

/** Where Virtual Consultation sends the member outside this product. */
export const consultationEnv = z.object({
  RESERVATION_URL: optional(httpUrl('RESERVATION_URL')),
  CONSULTATION_JOIN_URL: optional(httpUrl('CONSULTATION_JOIN_URL')),
});

export interface ConsultationSection {
  /** An external reservation page the Virtual Consultation hub opens; unset means our own. */
  reservationUrl: string | undefined;
  /** The video call booked consultations take place in; unset means the doctor phones the
   *  member (docs/decisions/calendar-export.md). */
  consultationJoinUrl: string | undefined;
}

export function parseConsultation(vars: z.infer<typeof consultationEnv>): ConsultationSection {
  return { reservationUrl: vars.RESERVATION_URL, consultationJoinUrl: vars.CONSULTATION_JOIN_URL };
}

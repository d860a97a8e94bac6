import { z } from 'zod';
import { dateTimeInRange } from './dates';
import { dentalAiResult } from './dental-ai';
import { pageQueryFields } from './pagination';
import { multiLineText, singleLineText } from './text';

/** Routes of docs/product/consultation.md#reservation-calls, plus the booking calls
 *  (docs/decisions/consultation-booking.md). */
export const reservationNotFoundMessage = 'This reservation was not found.';

export const consultationPaths = {
  reservations: '/api/reservation/',
  reservation: (id: string) => `/api/reservation/${encodeURIComponent(id)}/`,
  answer: (id: string) => `/api/form/answer/${encodeURIComponent(id)}/`,
  complaint: (id: string) => `/api/complaint/${encodeURIComponent(id)}/`,
  doctors: '/api/consultation/doctors/',
  form: '/api/consultation/form/',
} as const;

/** The two values of the history toggle (docs/product/consultation.md#reservation-history). */
export const reservationPeriods = ['future', 'history'] as const;
export const reservationPeriod = z.enum(reservationPeriods);
export type ReservationPeriod = z.infer<typeof reservationPeriod>;

/** The most reservations one list answers (docs/decisions/consultation-booking.md). */
export const reservationListLimit = 100;
/** Length of one consultation slot unless the practitioner chose another (each doctor's
 *  `slot_minutes`). */
export const slotMinutes = 30;
/** The widest window of free slots one call answers, and how far ahead a slot may be booked. */
export const slotWindowMaxDays = 14;
export const bookingHorizonDays = 60;
/** Free slots are offered from this many minutes ahead, so one chosen now is still ahead when
 *  the form is sent; a booking is accepted for any slot still in the future. */
export const bookingLeadMinutes = 60;
export const answerMaxLength = 2000;

/** The time format of the history cards (docs/product/consultation.md#reservation-history). */
export const reservationTimeFormat = 'YYYY-MM-DD HH:mm';

export const slotTakenMessage =
  'This time has just been booked by someone else. Please choose another time.';
export const pastReservationCancelMessage =
  'This consultation has already taken place and can no longer be cancelled.';
export const slotUnavailableMessage =
  'This time is not one of the doctor’s free consultation times. Please choose another time.';
export const unknownTimeZoneMessage = 'Choose a valid time zone.';
export const answerRequiredMessage = 'Please answer this question.';

/** Upcoming consultations one member may hold at once, against abuse of the doctors' time
 *  (docs/decisions/list-paging-and-caps.md). */
export const maxUpcomingReservations = 10;
export const upcomingReservationsLimitMessage = `You already have ${String(maxUpcomingReservations)} upcoming consultations, the most one member can book. Cancel one to book another.`;

/** True for an IANA time zone name this runtime knows (e.g. Europe/Paris, America/New_York). */
export function isIanaTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

export const reservationTimeZone = singleLineText()
  .min(1, unknownTimeZoneMessage)
  .max(64, unknownTimeZoneMessage)
  .refine(isIanaTimeZone, unknownTimeZoneMessage);

const instant = z.iso.datetime({ offset: true });

export const reservationListQuery = z.object({
  period: reservationPeriod,
  ...pageQueryFields(reservationListLimit),
});

export const consultationIdParams = z.object({ id: z.uuid('Not a valid id.') });

/** An answer (docs/product/consultation.md#reservation-calls). */
export const reservationAnswer = z.object({
  id: z.uuid(),
  answer: z.string(),
  form_and_questions: z.object({
    question: z.object({ question_label: z.string() }),
    order: z.number().int(),
  }),
});
export type ReservationAnswer = z.infer<typeof reservationAnswer>;

/** A reservation (docs/product/consultation.md#reservation-calls): a list item. */
export const reservation = z.object({
  id: z.uuid(),
  timezone: z.string(),
  reservation_time: instant,
  doctor_aggregation: z.object({ doctor: z.object({ name: z.string() }) }),
  answer: z.array(z.uuid()),
});
export type Reservation = z.infer<typeof reservation>;

/** One reservation with its answers in form order and its doctor summary's id, so the details view
 *  needs one call (answers fetched from stale state before;
 *  docs/product/consultation.md#reservation-details). */
export const reservationDetail = reservation.extend({
  /** The Dental AI results the patient attached for the doctor, each as the member's own answer
   *  (docs/decisions/consultation-dental-ai.md). */
  dental_ai: z.array(dentalAiResult),
  answers: z.array(reservationAnswer),
  /** Upcoming until its time has come (docs/product/consultation.md#reservation-history). */
  upcoming: z.boolean(),
  /** The doctor summary (complaint) of a past consultation, when one was recorded. */
  complaint_id: z.uuid().nullable(),
});
export type ReservationDetail = z.infer<typeof reservationDetail>;

export const reservationList = z.array(reservation);

/** The doctor summary (docs/product/consultation.md#reservation-calls): images are signed links
 *  joined by '||'. */
export const complaint = z.object({
  id: z.uuid(),
  doctor_condition: z.string(),
  doctor_summary: z.string(),
  doctor_return: z.string(),
  doctor_images: z.string(),
});
export type Complaint = z.infer<typeof complaint>;

/** The separator of doctor_images (docs/product/consultation.md#reservation-calls). */
export const doctorImagesSeparator = '||';

export function splitDoctorImages(images: string): string[] {
  return images.split(doctorImagesSeparator).filter((link) => link !== '');
}

export const slotQuery = z.object({
  /** Start of the window; now when absent (earlier times are never offered). */
  from: dateTimeInRange().optional(),
  /** Whole days from `from`, 1 to slotWindowMaxDays; 7 when absent. */
  days: z.coerce
    .number()
    .int('days must be a whole number.')
    .min(1, 'days must be at least 1.')
    .max(slotWindowMaxDays, `days must be at most ${String(slotWindowMaxDays)}.`)
    .optional(),
});
export type SlotQuery = z.infer<typeof slotQuery>;

export const doctorWithSlots = z.object({
  id: z.uuid(),
  name: z.string(),
  /** The doctor's own time zone; slots are instants and shown in the patient's zone. */
  timezone: z.string(),
  slots: z.array(instant),
  /** Additions for the doctor choice (docs/decisions/clinic-consultations.md): each slot's
   *  length, the bio and a short-lived signed link to the portrait (null without one). */
  slot_minutes: z.number().int(),
  bio: z.string(),
  photo_url: z.string().nullable(),
});
export type DoctorWithSlots = z.infer<typeof doctorWithSlots>;
export const doctorsWithSlots = z.array(doctorWithSlots);

export const formQuestion = z.object({
  id: z.uuid(),
  question_label: z.string(),
  order: z.number().int(),
});
export const consultationForm = z.object({
  id: z.uuid(),
  questions: z.array(formQuestion),
});
export type ConsultationForm = z.infer<typeof consultationForm>;

export const bookingAnswer = z.object({
  question: z.uuid('Not a valid question.'),
  answer: multiLineText()
    .trim()
    .min(1, answerRequiredMessage)
    .max(answerMaxLength, `An answer may be at most ${String(answerMaxLength)} characters.`),
});

/** The most Dental AI results one booking carries: enough for a photo and X-rays of one
 *  concern, few enough to be looked at in a consultation. */
export const maxBookingDentalAi = 5;
export const bookingDentalAiNotFoundMessage =
  'A Dental AI result to show the doctor was not found among yours.';

export const bookReservationRequest = z.object({
  doctor: z.uuid('Choose a doctor.'),
  reservation_time: dateTimeInRange('Choose a consultation time.'),
  timezone: reservationTimeZone,
  answers: z.array(bookingAnswer).max(50, 'Too many answers.'),
  /** Results of the member's own to show the doctor (docs/decisions/consultation-dental-ai.md). */
  dental_ai: z
    .array(z.uuid('Not a valid Dental AI result.'))
    .max(
      maxBookingDentalAi,
      `At most ${String(maxBookingDentalAi)} Dental AI results can be shown to the doctor.`,
    )
    .default([]),
});
export type BookReservationRequest = z.input<typeof bookReservationRequest>;

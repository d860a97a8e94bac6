import { z } from 'zod';
import { dateInRange } from './dates';
import { dataLink } from './oral-photo';
import { dentalAiResult } from './dental-ai';
import { pageQueryFields } from './pagination';
import { multiLineText, singleLineText } from './text';
import { reservationTimeZone } from './virtual-consultation';

/** The clinic console's calls for practitioners, their hours, the consultation form and the
 *  consultations booked with them (docs/decisions/clinic-consultations.md). */
export const clinicConsultationPaths = {
  practitioners: '/api/clinic/practitioners/',
  practitioner: (id: string) => `/api/clinic/practitioners/${encodeURIComponent(id)}/`,
  availability: (id: string) => `/api/clinic/practitioners/${encodeURIComponent(id)}/availability/`,
  form: '/api/clinic/form/',
  formQuestions: '/api/clinic/form/questions/',
  formQuestion: (id: string) => `/api/clinic/form/questions/${encodeURIComponent(id)}/`,
  consultations: '/api/clinic/consultations/',
  summary: (id: string) => `/api/clinic/consultations/${encodeURIComponent(id)}/summary/`,
} as const;

export const clinicIdParams = z.object({ id: z.uuid('Not a valid id.') });

/** Shortest and longest slot a practitioner may offer (the doctors table's check). */
export const minSlotMinutes = 5;
export const maxSlotMinutes = 240;
export const practitionerNameMaxLength = 100;
export const practitionerBioMaxLength = 2000;

export const practitioner = z.object({
  id: z.uuid(),
  name: z.string(),
  bio: z.string(),
  /** A short-lived signed link to the portrait, or null when there is none. */
  photo_url: z.string().nullable(),
  timezone: z.string(),
  slot_minutes: z.number().int(),
  /** Whether a practitioner's staff account is this doctor (false: entered by the clinic command). */
  has_account: z.boolean(),
  /** Removed by an admin: offers no new slots; past consultations keep the name. */
  removed: z.boolean(),
});
export type Practitioner = z.infer<typeof practitioner>;
export const practitionerList = z.object({ results: z.array(practitioner) });
export type PractitionerList = z.infer<typeof practitionerList>;

export const practitionerNameTakenMessage = 'Another practitioner already has this name.';

export const updatePractitionerRequest = z.object({
  name: singleLineText()
    .trim()
    .min(1, 'A practitioner needs a name.')
    .max(
      practitionerNameMaxLength,
      `A name may be at most ${String(practitionerNameMaxLength)} characters.`,
    )
    .optional(),
  bio: multiLineText()
    .trim()
    .max(
      practitionerBioMaxLength,
      `A bio may be at most ${String(practitionerBioMaxLength)} characters.`,
    )
    .optional(),
  /** A new portrait as a data link (accepted like a patient's photo), or null to remove it. */
  photo: dataLink.nullable().optional(),
});
export type UpdatePractitionerRequest = z.infer<typeof updatePractitionerRequest>;

export const weekdays = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof weekdays)[number];

const clockTimeMessage = 'Enter a time as HH:mm (00:00 to 24:00).';
/** 'HH:mm' from 00:00 to 24:00 (the end of the day). */
const clockTime = z.string().regex(/^(?:[01]\d|2[0-3]):[0-5]\d$|^24:00$/, clockTimeMessage);

/** Minutes after midnight of a valid 'HH:mm'. */
export function clockTimeMinutes(value: string): number {
  return Number(value.slice(0, 2)) * 60 + Number(value.slice(3, 5));
}

/** Minutes after midnight as 'HH:mm'. */
export function minutesClockTime(minutes: number): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
}

export const windowOrderMessage = 'The end must be after the start.';
export const windowOverlapMessage = 'This window overlaps another one on the same day.';
export const timeOffOrderMessage = 'The last day off must not be before the first.';
export const maxWeeklyWindows = 70;
export const maxTimeOffRanges = 100;

const weeklyWindow = z.object({
  weekday: z.enum(weekdays, 'Choose a weekday: mon … sun.'),
  from: clockTime,
  to: clockTime,
});
const timeOffRange = z.object({
  from: dateInRange('Enter a date as YYYY-MM-DD.'),
  to: dateInRange('Enter a date as YYYY-MM-DD.'),
});

/** What the availability answers: hours in the practitioner's own zone, whole days off. */
export const availability = z.object({
  timezone: z.string(),
  slot_minutes: z.number().int(),
  weekly: z.array(weeklyWindow),
  time_off: z.array(timeOffRange),
});
export type Availability = z.infer<typeof availability>;

/** The PUT replaces all of it: windows must end after they start and not overlap on a day;
 *  a range of days off must not end before it starts. */
export const availabilityRequest = z
  .object({
    timezone: reservationTimeZone,
    slot_minutes: z
      .number('The slot length must be a whole number of minutes.')
      .int('The slot length must be a whole number of minutes.')
      .min(minSlotMinutes, `A slot is at least ${String(minSlotMinutes)} minutes.`)
      .max(maxSlotMinutes, `A slot is at most ${String(maxSlotMinutes)} minutes.`),
    weekly: z
      .array(weeklyWindow)
      .max(maxWeeklyWindows, `At most ${String(maxWeeklyWindows)} weekly windows.`),
    time_off: z
      .array(timeOffRange)
      .max(maxTimeOffRanges, `At most ${String(maxTimeOffRanges)} ranges of days off.`),
  })
  .superRefine((value, context) => {
    value.weekly.forEach((window, index) => {
      if (clockTimeMinutes(window.from) >= clockTimeMinutes(window.to)) {
        context.addIssue({
          code: 'custom',
          message: windowOrderMessage,
          path: ['weekly', index, 'to'],
        });
        return;
      }
      const overlaps = value.weekly.some(
        (other, otherIndex) =>
          otherIndex !== index &&
          other.weekday === window.weekday &&
          clockTimeMinutes(other.from) < clockTimeMinutes(window.to) &&
          clockTimeMinutes(window.from) < clockTimeMinutes(other.to),
      );
      if (overlaps) {
        context.addIssue({
          code: 'custom',
          message: windowOverlapMessage,
          path: ['weekly', index],
        });
      }
    });
    value.time_off.forEach((range, index) => {
      if (range.from > range.to) {
        context.addIssue({
          code: 'custom',
          message: timeOffOrderMessage,
          path: ['time_off', index, 'to'],
        });
      }
    });
  });
export type AvailabilityRequest = z.infer<typeof availabilityRequest>;

export const formQuestionLabelMaxLength = 500;
const questionLabel = singleLineText()
  .trim()
  .min(1, 'A question needs a label.')
  .max(
    formQuestionLabelMaxLength,
    `A question may be at most ${String(formQuestionLabelMaxLength)} characters.`,
  );
const questionPosition = z
  .number('The position must be a whole number from 1.')
  .int('The position must be a whole number from 1.')
  .min(1, 'The position must be a whole number from 1.');

export const clinicFormQuestion = z.object({
  id: z.uuid(),
  label: z.string(),
  /** 1-based place on the form. */
  position: z.number().int(),
});
export type ClinicFormQuestion = z.infer<typeof clinicFormQuestion>;
export const clinicForm = z.object({ questions: z.array(clinicFormQuestion) });
export type ClinicForm = z.infer<typeof clinicForm>;
export const newFormQuestionRequest = z.object({
  label: questionLabel,
  position: questionPosition.optional(),
});
export const updateFormQuestionRequest = z
  .object({ label: questionLabel.optional(), position: questionPosition.optional() })
  .refine(
    (value) => value.label !== undefined || value.position !== undefined,
    'Send a new label, a new position, or both.',
  );
export const createdId = z.object({ id: z.uuid() });

export const consultationPeriods = ['today', 'future', 'history'] as const;
export type ConsultationPeriod = (typeof consultationPeriods)[number];
/** The most consultations one page answers. */
export const consultationPageLimit = 50;
export const clinicConsultationQuery = z.object({
  period: z.enum(consultationPeriods, 'period must be today, future or history.'),
  ...pageQueryFields(consultationPageLimit),
});

/** The doctor summary as the console reads it; images are short-lived signed links. */
export const clinicSummary = z.object({
  doctor_condition: z.string(),
  doctor_summary: z.string(),
  doctor_return: z.string(),
  images: z.array(z.string()),
  updated_at: z.iso.datetime({ offset: true }),
});
export type ClinicSummary = z.infer<typeof clinicSummary>;

export const clinicConsultation = z.object({
  id: z.uuid(),
  reservation_time: z.iso.datetime({ offset: true }),
  /** The zone the patient booked in (as their reservation record shows it). */
  timezone: z.string(),
  practitioner: z.object({ id: z.uuid(), name: z.string() }),
  patient: z.object({ id: z.uuid(), username: z.string() }),
  answers: z.array(z.object({ label: z.string(), answer: z.string() })),
  /** The Dental AI results the patient attached, their images through the care team's file
   *  links (docs/decisions/consultation-dental-ai.md). */
  dental_ai: z.array(dentalAiResult),
  summary: clinicSummary.nullable(),
});
export type ClinicConsultation = z.infer<typeof clinicConsultation>;
/** `next` is the path of the following page, null on the last. */
export const clinicConsultationPage = z.object({
  results: z.array(clinicConsultation),
  next: z.string().nullable(),
});
export type ClinicConsultationPage = z.infer<typeof clinicConsultationPage>;

export const summaryTextMaxLength = 2000;
export const maxSummaryImages = 4;
const summaryText = (required: string) =>
  multiLineText()
    .trim()
    .min(1, required)
    .max(summaryTextMaxLength, `At most ${String(summaryTextMaxLength)} characters.`);
export const summaryRequest = z.object({
  doctor_condition: summaryText('The condition is required.'),
  doctor_summary: summaryText('The suggestion is required.'),
  doctor_return: summaryText('The recommended return visit time is required.'),
  /** Photos or X-rays as data links, accepted as a patient's photos are (type, 5 MB). */
  images: z
    .array(dataLink)
    .max(maxSummaryImages, `At most ${String(maxSummaryImages)} images.`)
    .default([]),
});
export type SummaryRequest = z.input<typeof summaryRequest>;
export const summaryTooEarlyMessage =
  'A summary can only be written once the consultation has taken place.';

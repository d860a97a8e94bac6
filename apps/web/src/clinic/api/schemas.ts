import { z } from 'zod';
import { account } from '@dental/contracts';

// The answers of the clinic's routes that @dental/contracts does not hold yet, as the issue's
// contract gives them (issue 29); the staff routes' are the contracts' own.

/** `GET /api/account/` tells a member's token from a staff one before any clinic route is asked. */
export const accountRoleOnly = account.pick({ role: true });

export const consultationSummary = z.object({
  doctor_condition: z.string(),
  doctor_summary: z.string(),
  doctor_return: z.string(),
  images: z.array(z.string()),
  updated_at: z.string(),
});
export type ConsultationSummary = z.infer<typeof consultationSummary>;

export const clinicConsultation = z.object({
  id: z.string(),
  reservation_time: z.string(),
  timezone: z.string(),
  practitioner: z.object({ id: z.string(), name: z.string() }),
  patient: z.object({ id: z.string(), username: z.string() }),
  answers: z.array(z.object({ label: z.string(), answer: z.string() })),
  summary: consultationSummary.nullable(),
});
export type ClinicConsultation = z.infer<typeof clinicConsultation>;

export const consultationList = z.object({
  results: z.array(clinicConsultation),
  next: z.string().nullable().optional(),
});

export const consultationPeriods = ['today', 'future', 'history'] as const;
export type ConsultationPeriod = (typeof consultationPeriods)[number];

export const practitioner = z.object({
  id: z.string(),
  name: z.string(),
  bio: z.string(),
  photo_url: z.string().nullable(),
  timezone: z.string(),
  slot_minutes: z.number(),
  has_account: z.boolean(),
  removed: z.boolean(),
});
export type Practitioner = z.infer<typeof practitioner>;
export const practitionerList = z.object({ results: z.array(practitioner) });

export const weekdays = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof weekdays)[number];

export const availability = z.object({
  timezone: z.string(),
  slot_minutes: z.number(),
  weekly: z.array(z.object({ weekday: z.enum(weekdays), from: z.string(), to: z.string() })),
  time_off: z.array(z.object({ from: z.string(), to: z.string() })),
});
export type Availability = z.infer<typeof availability>;

export const formQuestion = z.object({ id: z.string(), label: z.string(), position: z.number() });
export type FormQuestion = z.infer<typeof formQuestion>;
export const consultationForm = z.object({ questions: z.array(formQuestion) });

export const createdId = z.object({ id: z.string() }).loose();

import { z } from 'zod';
import { dateInRange, dateTimeInRange } from './dates';
import { pageQueryFields } from './pagination';
import { multiLineText, singleLineText } from './text';

/** Routes of the appointment calls (docs/product/appointments.md#appointment-calls). */
export const appointmentPaths = {
  list: '/api/appointment/',
  /** How many upcoming or previous appointments lie outside the dates (outsideRangeCount). */
  outsideRange: '/api/appointment/outside-range/',
  /** GET/PUT the member's check-up recall (docs/product/appointments.md#check-up-recall). */
  recall: '/api/appointment/recall/',
  one: (id: string) => `/api/appointment/${id}/`,
} as const;

/** A check-up recall comes this many months after the last past appointment. */
export const recallIntervals = [6, 12] as const;
export const recallNeedsChannelMessage = 'Choose e-mail, SMS or both for the reminder.';

/** PUT /api/appointment/recall/: interval_months null turns the recall off. */
export const checkUpRecallRequest = z
  .object({
    interval_months: z.union([z.literal(6), z.literal(12)]).nullable(),
    email_alert: z.boolean(),
    sms_alert: z.boolean(),
  })
  .refine((body) => body.interval_months === null || body.email_alert || body.sms_alert, {
    message: recallNeedsChannelMessage,
    path: ['email_alert'],
  });
export type CheckUpRecallRequest = z.infer<typeof checkUpRecallRequest>;

/** The recall as set, with the last past appointment it counts from and the date it is due
 *  (null while off or before any past appointment). */
export const checkUpRecall = z.object({
  interval_months: z.union([z.literal(6), z.literal(12)]).nullable(),
  email_alert: z.boolean(),
  sms_alert: z.boolean(),
  last_appointment_date: z.iso.datetime({ offset: true }).nullable(),
  due_date: z.iso.datetime({ offset: true }).nullable(),
});
export type CheckUpRecall = z.infer<typeof checkUpRecall>;

/** upcoming: from now on, soonest first; previous: before now, latest first. */
export const appointmentOrders = ['upcoming', 'previous'] as const;
export const appointmentOrder = z.enum(appointmentOrders);
export type AppointmentOrder = z.infer<typeof appointmentOrder>;

/** The reminder choices of the forms (docs/product/appointments.md#reminders): hours before the
 *  appointment. */
export const reminderOffsetHours = [1, 24, 168] as const;
export type ReminderOffsetHours = (typeof reminderOffsetHours)[number];

export const appointmentNoteMaxLength = 1000;
/** One alert per offered choice (docs/decisions/appointment-api-shape.md). */
export const maxAlertsPerAppointment = reminderOffsetHours.length;
/** Upcoming appointments one member may keep: each one schedules reminders
 *  (docs/decisions/list-paging-and-caps.md). */
export const maxUpcomingAppointments = 500;
export const upcomingAppointmentsLimitMessage = `You already have ${String(maxUpcomingAppointments)} upcoming appointments, the most one member can keep. Delete one to add another.`;
/** Hard upper bound on the rows one list call answers. */
export const appointmentListLimit = 200;

/** True for an IANA time zone name this runtime knows, e.g. 'America/New_York'. */
function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

export const appointmentTimeZone = singleLineText()
  .max(64)
  .refine(isTimeZone, 'Enter a time zone such as America/New_York.');

const epochSeconds = z
  .number('Each reminder is a time in epoch seconds.')
  .int('Each reminder is a time in whole epoch seconds.')
  .min(0, 'A reminder time cannot be before 1970.')
  .max(4_102_444_800, 'A reminder time must be before the year 2100.');

/** POST and PUT body (docs/product/appointments.md#appointment-calls): alert_before holds the alert
 *  times in epoch seconds. */
export const appointmentRequest = z
  .object({
    appointment_date: dateTimeInRange('Enter the appointment date and time.'),
    note: multiLineText('The note must be text.')
      .trim()
      .max(
        appointmentNoteMaxLength,
        `The note must be at most ${appointmentNoteMaxLength} characters.`,
      )
      .nullish()
      .transform((note) => note ?? ''),
    email_alert: z.boolean('email_alert must be true or false.').default(false),
    sms_alert: z.boolean('sms_alert must be true or false.').default(false),
    /** A push to the member's devices with notifications on (docs/decisions/web-push.md). */
    push_alert: z.boolean('push_alert must be true or false.').default(false),
    alert_before: z
      .array(epochSeconds, 'alert_before must be a list of times.')
      .max(maxAlertsPerAppointment, `At most ${maxAlertsPerAppointment} reminders per appointment.`)
      .default([])
      // The same time twice would be one reminder; keep the list a set, earliest first.
      .transform((times) => [...new Set(times)].sort((a, b) => a - b)),
    /** Where the member is: reminder texts show the date and time there. Default UTC. */
    time_zone: appointmentTimeZone.optional(),
  })
  .superRefine((request, context) => {
    const appointmentSeconds = Date.parse(request.appointment_date) / 1000;
    if (request.alert_before.some((time) => time > appointmentSeconds)) {
      context.addIssue({
        code: 'custom',
        path: ['alert_before'],
        message: 'A reminder must come before the appointment.',
      });
    }
  });
export type AppointmentRequest = z.input<typeof appointmentRequest>;
export type ParsedAppointmentRequest = z.output<typeof appointmentRequest>;

/** An alert as read back: its time in epoch seconds. */
export const appointmentAlert = z.object({ alert_time: z.number().int() });

export const appointment = z.object({
  id: z.uuid(),
  appointment_date: z.iso.datetime({ offset: true }),
  time_zone: z.string(),
  note: z.string(),
  email_alert: z.boolean(),
  sms_alert: z.boolean(),
  push_alert: z.boolean(),
  alert_before: z.array(appointmentAlert),
});
export type Appointment = z.infer<typeof appointment>;

export const appointmentList = z.array(appointment);

const calendarDate = (field: string) =>
  dateInRange(`${field} must be a date written YYYY-MM-DD.`).optional();

const appointmentRangeFields = {
  order: appointmentOrder.default('upcoming'),
  startDate: calendarDate('startDate'),
  endDate: calendarDate('endDate'),
};

const appointmentRangeRule: [
  (range: { startDate?: string | undefined; endDate?: string | undefined }) => boolean,
  { message: string; path: string[] },
] = [
  ({ startDate, endDate }) =>
    startDate === undefined || endDate === undefined || startDate <= endDate,
  { path: ['endDate'], message: 'endDate must not be before startDate.' },
];

/** GET /api/appointment/ query; dates are calendar days where each appointment takes place. */
export const appointmentListQuery = z
  .object({ ...appointmentRangeFields, ...pageQueryFields(appointmentListLimit) })
  .refine(...appointmentRangeRule);

/** GET /api/appointment/outside-range/: the list's order and dates. */
export const appointmentOutsideRangeQuery = z
  .object(appointmentRangeFields)
  .refine(...appointmentRangeRule);
export type AppointmentOutsideRangeQuery = z.infer<typeof appointmentOutsideRangeQuery>;

export const appointmentIdParams = z.object({ id: z.uuid('An appointment id is a UUID.') });

export const appointmentNotFoundMessage = 'Appointment not found.';

/** The API's answer to an alert time already past when saved, one the appointment did not have
 *  before: it could never be sent (docs/decisions/past-reminder-offsets.md). */
export const pastReminderMessage =
  'A reminder time has already passed, so it could never be sent. Choose a reminder that is still ahead, or none.';

/**
 * Whether an alert can still be sent: its instant is after now. Instants, not wall-clock times:
 * the offsets are whole hours before the appointment's instant, so the time zone of the visit
 * cannot change the answer (docs/decisions/past-reminder-offsets.md).
 */
export function reminderCanFire(alertSeconds: number, nowSeconds: number): boolean {
  return alertSeconds > nowSeconds;
}

/**
 * The reminder choice an alert stands for: its distance from the appointment in whole hours, when
 * that is one of the offered 1, 24 or 168 (docs/product/appointments.md#new-and-edit-appointment).
 */
export function reminderChoiceOf(
  appointmentSeconds: number,
  alertSeconds: number,
): ReminderOffsetHours | undefined {
  const hours = (appointmentSeconds - alertSeconds) / 3600;
  return reminderOffsetHours.find((offset) => offset === hours);
}

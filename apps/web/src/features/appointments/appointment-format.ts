import dayjs from 'dayjs';
import {
  reminderCanFire,
  reminderChoiceOf,
  reminderOffsetHours,
  type Appointment,
  type AppointmentRequest,
  type ReminderOffsetHours,
} from '@dental/contracts';

/** The card formats (docs/product/appointments.md#appointment-list), in the browser's (the user's)
 *  time zone. */
export const cardDateFormat = 'MM-DD-YYYY ddd';
export const cardTimeFormat = 'hh:mm A';

export function cardDate(appointmentDate: string): string {
  return dayjs(appointmentDate).format(cardDateFormat);
}

export function cardTime(appointmentDate: string): string {
  return dayjs(appointmentDate).format(cardTimeFormat);
}

/** The user's IANA time zone, sent with each appointment so reminders show their local time. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

export const reminderLabels: Record<ReminderOffsetHours, string> = {
  1: '1 hour before',
  24: '1 day before',
  168: '1 week before',
};

/** The card's reminder line: which alerts are set and how they are sent, or that none is, so a
 *  patient sees at a glance whether a reminder will come
 *  (docs/decisions/patient-grade-defects.md). */
export function reminderSummary(appointment: Appointment): string {
  const { reminders } = toFormValues(appointment);
  const channels = [
    appointment.email_alert && 'e-mail',
    appointment.sms_alert && 'SMS',
    appointment.push_alert && 'notification',
  ].filter((channel) => channel !== false);
  if (reminders.length === 0 || channels.length === 0) return 'No reminder set';
  const times = reminders.map((hours) => reminderLabels[hours]).join(', ');
  return `Reminder by ${channels.join(' and ')}: ${times}`;
}

/** What the form edits: date and time apart
 *  (docs/product/appointments.md#new-and-edit-appointment). */
export interface AppointmentFormValues {
  date: string;
  time: string;
  note: string;
  email_alert: boolean;
  sms_alert: boolean;
  push_alert: boolean;
  reminders: ReminderOffsetHours[];
}

/** An appointment as form values; alerts map back to the choices by 1, 24 or 168 hours
 *  (docs/product/appointments.md#new-and-edit-appointment), others are not offered and are
 *  dropped. */
export function toFormValues(appointment: Appointment): AppointmentFormValues {
  const when = dayjs(appointment.appointment_date);
  const appointmentSeconds = when.unix();
  const chosen = new Set(
    appointment.alert_before.map(({ alert_time }) =>
      reminderChoiceOf(appointmentSeconds, alert_time),
    ),
  );
  return {
    date: when.format('YYYY-MM-DD'),
    time: when.format('HH:mm'),
    note: appointment.note,
    email_alert: appointment.email_alert,
    sms_alert: appointment.sms_alert,
    push_alert: appointment.push_alert,
    reminders: reminderOffsetHours.filter((hours) => chosen.has(hours)),
  };
}

/** The alert times, in epoch seconds, of the reminders chosen for the form's date and time. */
export function alertTimesOf(values: Pick<AppointmentFormValues, 'date' | 'time' | 'reminders'>) {
  const when = dayjs(`${values.date}T${values.time}`);
  if (!when.isValid()) return [];
  return values.reminders.map((hours) => when.unix() - hours * 3600);
}

/** open: still ahead; past: its time has passed and it could never be sent, so it is not
 *  offered; kept: past, but the appointment already had this very alert, which stays as it was
 *  (docs/decisions/past-reminder-offsets.md). */
export type ReminderChoiceState = 'open' | 'past' | 'kept';

/** Each reminder choice for the date and time in the form, judged at `now`. */
export function reminderChoiceStates(
  values: Pick<AppointmentFormValues, 'date' | 'time'>,
  now: Date,
  savedAlerts: readonly number[],
): Record<ReminderOffsetHours, ReminderChoiceState> {
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const state = (hours: ReminderOffsetHours): ReminderChoiceState => {
    const [alertSeconds] = alertTimesOf({ ...values, reminders: [hours] });
    if (alertSeconds === undefined || reminderCanFire(alertSeconds, nowSeconds)) return 'open';
    return savedAlerts.includes(alertSeconds) ? 'kept' : 'past';
  };
  return Object.fromEntries(reminderOffsetHours.map((hours) => [hours, state(hours)])) as Record<
    ReminderOffsetHours,
    ReminderChoiceState
  >;
}

/** The POST/PUT body: the local date and time as an instant, alerts as epoch seconds. */
export function toRequest(values: AppointmentFormValues): AppointmentRequest {
  const when = dayjs(`${values.date}T${values.time}`);
  return {
    appointment_date: when.toISOString(),
    note: values.note,
    email_alert: values.email_alert,
    sms_alert: values.sms_alert,
    push_alert: values.push_alert,
    alert_before: alertTimesOf(values),
    time_zone: browserTimeZone(),
  };
}

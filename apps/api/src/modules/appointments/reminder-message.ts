import type { MailMessage } from '#api/adapters/mailer';
import { escapeHtml } from '#api/lib/html';
import type { SmsMessage } from '#api/adapters/sms/sms-sender';
import type { PushNotice } from '#api/jobs/push-outbox';

export interface ReminderContext {
  appointmentId: string;
  appointmentDate: Date;
  /** The zone the member saved the appointment in: their own (docs/decisions/patient-grade-defects.md). */
  timeZone: string;
  note: string;
  publicUrl: string;
  companyName: string;
}

/** The date and time as the appointment cards show them (docs/product/appointments.md#reminders),
 *  in the member's zone. */
export function appointmentWhen(date: Date, timeZone: string): { day: string; time: string } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
      hour12: true,
    })
      .formatToParts(date)
      .map((part) => [part.type, part.value]),
  ) as Partial<Record<Intl.DateTimeFormatPartTypes, string>>;
  const { month, day, year, weekday, hour, minute, dayPeriod } = parts;
  return {
    day: `${month ?? ''}-${day ?? ''}-${year ?? ''} ${weekday ?? ''}`,
    time: `${hour ?? ''}:${minute ?? ''} ${dayPeriod ?? ''}`,
  };
}

function details(context: ReminderContext) {
  const { day, time } = appointmentWhen(context.appointmentDate, context.timeZone);
  const link = `${context.publicUrl}/appointments/${context.appointmentId}/edit`;
  return { when: `${day} at ${time} (${context.timeZone})`, link };
}

/** The most of the note an SMS carries, so that the text stays short. */
export const smsNoteLength = 40;

/** The note cut to `length` characters, with an ellipsis when anything was left out. */
function shortened(note: string, length: number): string {
  // Whole graphemes, so an emoji or an accented letter is never cut in half.
  const characters = Array.from(
    new Intl.Segmenter('en', { granularity: 'grapheme' }).segment(note.replace(/\s+/g, ' ').trim()),
    ({ segment }) => segment,
  );
  return characters.length <= length
    ? characters.join('')
    : `${characters.slice(0, length - 1).join('')}…`;
}

/** The e-mail reminder: date, time, zone, the note (what the appointment is) and the link. */
export function reminderEmail(to: string, context: ReminderContext): MailMessage {
  const { when, link } = details(context);
  const { day } = appointmentWhen(context.appointmentDate, context.timeZone);
  return {
    to,
    subject: `Reminder: your dental appointment on ${day}`,
    text: [
      `This is a reminder of your dental appointment on ${when}.`,
      ...(context.note === '' ? [] : ['', `Your note: ${context.note}`]),
      '',
      `See or change it here: ${link}`,
      '',
      context.companyName,
    ].join('\n'),
    html: [
      `<p>This is a reminder of your dental appointment on ${escapeHtml(when)}.</p>`,
      ...(context.note === ''
        ? []
        : [`<p style="white-space: pre-wrap">Your note: ${escapeHtml(context.note)}</p>`]),
      `<p><a href="${escapeHtml(link)}">See or change your appointment</a></p>`,
      `<p>${escapeHtml(context.companyName)}</p>`,
    ].join('\n'),
  };
}

/** The SMS reminder: the same facts, the note shortened. */
export function reminderSms(to: string, context: ReminderContext): SmsMessage {
  const { when, link } = details(context);
  const note = context.note.trim() === '' ? '' : ` (${shortened(context.note, smsNoteLength)})`;
  return {
    to,
    body: `${context.companyName}: reminder of your dental appointment${note} on ${when}. ${link}`,
  };
}

/** The push reminder: date and time in the member's zone and the appointment's screen; no note,
 *  which may say what the treatment is (docs/decisions/web-push.md). */
export function reminderPush(
  context: Pick<ReminderContext, 'appointmentId' | 'appointmentDate' | 'timeZone'>,
): PushNotice {
  const { day, time } = appointmentWhen(context.appointmentDate, context.timeZone);
  return {
    body: `Reminder: your dental appointment on ${day} at ${time}`,
    url: `/appointments/${context.appointmentId}/edit`,
  };
}

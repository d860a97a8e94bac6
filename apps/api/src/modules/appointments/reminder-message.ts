import type { MailMessage } from '#api/adapters/mailer';
import type { SmsMessage } from '#api/adapters/sms/sms-sender';

export interface ReminderContext {
  appointmentId: string;
  appointmentDate: Date;
  timeZone: string;
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

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

/** The e-mail reminder: date, time and link only; no note or other health detail. */
export function reminderEmail(to: string, context: ReminderContext): MailMessage {
  const { when, link } = details(context);
  const { day } = appointmentWhen(context.appointmentDate, context.timeZone);
  return {
    to,
    subject: `Reminder: your dental appointment on ${day}`,
    text: [
      `This is a reminder of your dental appointment on ${when}.`,
      '',
      `See or change it here: ${link}`,
      '',
      context.companyName,
    ].join('\n'),
    html: [
      `<p>This is a reminder of your dental appointment on ${escapeHtml(when)}.</p>`,
      `<p><a href="${escapeHtml(link)}">See or change your appointment</a></p>`,
      `<p>${escapeHtml(context.companyName)}</p>`,
    ].join('\n'),
  };
}

/** The SMS reminder: the same facts, short. */
export function reminderSms(to: string, context: ReminderContext): SmsMessage {
  const { when, link } = details(context);
  return {
    to,
    body: `${context.companyName}: reminder of your dental appointment on ${when}. ${link}`,
  };
}

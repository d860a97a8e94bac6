import { describe, expect, it } from 'vitest';
import { appointmentWhen, reminderEmail, reminderSms } from './reminder-message';

const context = {
  appointmentId: '0b7e7f2c-3a55-4f57-9d3e-2f1f3c9d8a11',
  appointmentDate: new Date('2030-03-15T14:30:00.000Z'),
  timeZone: 'America/New_York',
  publicUrl: 'https://dental.example',
  companyName: 'Smile & Co',
  note: 'Crown fitting <upper left>',
};

describe('reminder messages', () => {
  it.each([
    ['2030-03-15T14:30:00.000Z', 'America/New_York', '03-15-2030 Fri', '10:30 AM'],
    ['2030-03-15T04:05:00.000Z', 'America/New_York', '03-15-2030 Fri', '12:05 AM'],
    ['2030-03-15T04:05:00.000Z', 'America/Los_Angeles', '03-14-2030 Thu', '09:05 PM'],
    ['2030-03-15T12:00:00.000Z', 'UTC', '03-15-2030 Fri', '12:00 PM'],
  ])('%s in %s is %s at %s', (iso, zone, day, time) => {
    expect(appointmentWhen(new Date(iso), zone)).toEqual({ day, time });
  });

  it('e-mails the date, time, zone, note and link, escaped in HTML', () => {
    const mail = reminderEmail('ada@example.com', context);
    expect(mail.to).toBe('ada@example.com');
    expect(mail.subject).toBe('Reminder: your dental appointment on 03-15-2030 Fri');
    expect(mail.text).toContain('03-15-2030 Fri at 10:30 AM (America/New_York)');
    expect(mail.text).toContain(
      `https://dental.example/appointments/${context.appointmentId}/edit`,
    );
    expect(mail.text).toContain('Your note: Crown fitting <upper left>');
    expect(mail.html).toContain('Your note: Crown fitting &#60;upper left&#62;');
    expect(mail.html).toContain('Smile &#38; Co');
    expect(mail.html).not.toContain('Smile & Co');
  });

  it('texts the same facts', () => {
    expect(reminderSms('+14155550123', context)).toEqual({
      to: '+14155550123',
      body: `Smile & Co: reminder of your dental appointment (Crown fitting <upper left>) on 03-15-2030 Fri at 10:30 AM (America/New_York). https://dental.example/appointments/${context.appointmentId}/edit`,
    });
  });

  it('shortens a long note in the SMS and leaves out an empty one', () => {
    const long = reminderSms('+1', {
      ...context,
      note: 'Root canal treatment\nupper left molar, second visit',
    });
    expect(long.body).toContain(`(Root canal treatment upper left molar, …) on`);
    expect(reminderSms('+1', { ...context, note: '' }).body).toContain('appointment on 03-15-2030');
    expect(reminderEmail('a@example.com', { ...context, note: '' }).text).not.toContain(
      'Your note',
    );
  });
});

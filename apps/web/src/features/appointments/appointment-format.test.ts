import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import type { Appointment } from '@dental/contracts';
import { cardDate, cardTime, toFormValues, toRequest } from './appointment-format';

const local = dayjs('2030-03-15T09:30:00');
const seconds = local.unix();
const appointment = (alerts: number[]): Appointment => ({
  id: '0b7e7f2c-3a55-4f57-9d3e-2f1f3c9d8a11',
  appointment_date: local.toISOString(),
  time_zone: 'UTC',
  note: 'Cleaning',
  email_alert: true,
  sms_alert: false,
  alert_before: alerts.map((alert_time) => ({ alert_time })),
});

describe('appointment formats', () => {
  it('shows cards as MM-DD-YYYY ddd and hh:mm A in the user’s time zone', () => {
    expect(cardDate(local.toISOString())).toBe('03-15-2030 Fri');
    expect(cardTime(local.toISOString())).toBe('09:30 AM');
    expect(cardTime(local.add(12, 'hour').toISOString())).toBe('09:30 PM');
  });

  it.each([
    [[seconds - 3600], [1]],
    [[seconds - 24 * 3600], [24]],
    [[seconds - 168 * 3600], [168]],
    [
      [seconds - 168 * 3600, seconds - 3600],
      [1, 168],
    ],
    // Two hours before is none of the offered choices.
    [[seconds - 2 * 3600], []],
  ])('maps alerts %j back to the reminder choices %j on edit', (alerts, choices) => {
    expect(toFormValues(appointment(alerts))).toEqual({
      date: '2030-03-15',
      time: '09:30',
      note: 'Cleaning',
      email_alert: true,
      sms_alert: false,
      reminders: choices,
    });
  });

  it('writes the choices as epoch seconds before the local date and time', () => {
    const request = toRequest({
      date: '2030-03-15',
      time: '09:30',
      note: 'Cleaning',
      email_alert: true,
      sms_alert: true,
      reminders: [1, 24, 168],
    });
    expect(request).toMatchObject({
      appointment_date: local.toISOString(),
      note: 'Cleaning',
      email_alert: true,
      sms_alert: true,
      alert_before: [seconds - 3600, seconds - 24 * 3600, seconds - 168 * 3600],
    });
    expect(request.time_zone).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
  });
});

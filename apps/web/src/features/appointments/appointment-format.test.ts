import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import type { Appointment } from '@dental/contracts';
import {
  cardDate,
  cardTime,
  reminderChoiceStates,
  reminderSummary,
  toFormValues,
  toRequest,
} from './appointment-format';

const local = dayjs('2030-03-15T09:30:00');
const seconds = local.unix();
const appointment = (alerts: number[]): Appointment => ({
  id: '0b7e7f2c-3a55-4f57-9d3e-2f1f3c9d8a11',
  appointment_date: local.toISOString(),
  time_zone: 'UTC',
  note: 'Cleaning',
  email_alert: true,
  sms_alert: false,
  push_alert: false,
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
      push_alert: false,
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
      push_alert: true,
      reminders: [1, 24, 168],
    });
    expect(request).toMatchObject({
      appointment_date: local.toISOString(),
      note: 'Cleaning',
      email_alert: true,
      sms_alert: true,
      push_alert: true,
      alert_before: [seconds - 3600, seconds - 24 * 3600, seconds - 168 * 3600],
    });
    expect(request.time_zone).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
  });
});

describe('the card’s reminder line', () => {
  it('names the notification among the channels', () => {
    const withPush = { ...appointment([seconds - 24 * 3600]), push_alert: true };
    expect(reminderSummary(withPush)).toBe('Reminder by e-mail and notification: 1 day before');
  });
});

describe('reminder choices already past', () => {
  // The visit is 2030-03-15 09:30 local; `now` moves, the choices are judged against it.
  const at = (hoursBefore: number) => local.subtract(hoursBefore, 'hour').toDate();
  const when = { date: '2030-03-15', time: '09:30' };

  it.each([
    ['more than a week ahead', 200, [], { 1: 'open', 24: 'open', 168: 'open' }],
    ['five days ahead', 120, [], { 1: 'open', 24: 'open', 168: 'past' }],
    // At the alert's very second it is too late: a reminder is sent only while ahead.
    ['exactly a day ahead', 24, [], { 1: 'open', 24: 'past', 168: 'past' }],
    ['half an hour ahead', 0.5, [], { 1: 'past', 24: 'past', 168: 'past' }],
    [
      'half an hour ahead, 1 hour saved',
      0.5,
      [seconds - 3600],
      { 1: 'kept', 24: 'past', 168: 'past' },
    ],
  ] as const)('%s', (_, hoursBefore, saved, states) => {
    expect(reminderChoiceStates(when, at(hoursBefore), saved)).toEqual(states);
  });

  it('judges nothing past while the date or time is not filled in', () => {
    expect(reminderChoiceStates({ date: '', time: '09:30' }, at(0), [])).toEqual({
      1: 'open',
      24: 'open',
      168: 'open',
    });
  });
});

import { describe, expect, it } from 'vitest';
import { recallSummary } from './check-up-recall-section';

const off = {
  interval_months: null,
  email_alert: false,
  sms_alert: false,
  last_appointment_date: null,
  due_date: null,
};

describe('recallSummary', () => {
  it('says when the reminder is off', () => {
    expect(recallSummary(off)).toBe('No check-up reminder is set.');
  });

  it('counts from the first appointment when none has passed yet', () => {
    expect(recallSummary({ ...off, interval_months: 12, email_alert: true })).toBe(
      'You have no past appointment yet: the reminder comes 12 months after your first one.',
    );
  });

  it('names the last appointment and the due date', () => {
    expect(
      recallSummary({
        interval_months: 6,
        email_alert: true,
        sms_alert: false,
        last_appointment_date: '2026-04-29T10:00:00.000Z',
        due_date: '2026-10-29T10:00:00.000Z',
      }),
    ).toBe(
      'Your last appointment was on 04-29-2026, so the reminder is due on 10-29-2026. It is not sent while a later appointment is booked.',
    );
  });
});

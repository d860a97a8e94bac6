import { describe, expect, it } from 'vitest';
import { addMonths, recallEmail, recallSms } from './check-up-recall.service';

describe('addMonths', () => {
  it.each([
    ['2026-01-31T15:00:00.000Z', 6, '2026-07-31T15:00:00.000Z'],
    ['2026-08-31T09:30:00.000Z', 6, '2027-02-28T09:30:00.000Z'],
    ['2027-08-29T09:30:00.000Z', 6, '2028-02-29T09:30:00.000Z'],
    ['2026-03-15T00:00:00.000Z', 12, '2027-03-15T00:00:00.000Z'],
    ['2026-05-31T12:00:00.000Z', -7, '2025-10-31T12:00:00.000Z'],
  ])('%s + %d months is %s, as PostgreSQL counts it', (from, months, expected) => {
    expect(addMonths(new Date(from), months).toISOString()).toBe(expected);
  });
});

describe('the recall messages', () => {
  it('say only that a check-up is due, with the link', () => {
    const mail = recallEmail(
      'ann@example.com',
      6,
      'Bright Smile',
      'https://x.test/appointments/add',
    );
    expect(mail.subject).toBe('A reminder from Bright Smile');
    expect(mail.text).toContain('It has been 6 months since your last dental appointment');
    expect(mail.html).toContain('https://x.test/appointments/add');
    expect(recallSms('+14155550100', 'Bright Smile', 'https://x.test/appointments/add')).toEqual({
      to: '+14155550100',
      body: 'Bright Smile: it is time to book your next dental check-up. https://x.test/appointments/add',
    });
  });
});

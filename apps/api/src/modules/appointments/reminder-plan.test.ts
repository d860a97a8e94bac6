import { describe, expect, it } from 'vitest';
import { plannedReminders, reconcileReminders } from './reminder-plan';

const now = new Date('2030-03-14T12:00:00.000Z');
const at = (iso: string) => new Date(iso);

describe('plannedReminders', () => {
  it.each([
    [true, false, false, ['email']],
    [false, true, false, ['sms']],
    [false, false, true, ['push']],
    [true, true, true, ['email', 'sms', 'push']],
    [false, false, false, []],
  ])(
    'email %s, sms %s, push %s: one reminder per future alert on %j',
    (emailAlert, smsAlert, pushAlert, channels) => {
      const planned = plannedReminders({
        alertTimes: [at('2030-03-14T11:00:00.000Z'), now, at('2030-03-14T13:00:00.000Z')],
        emailAlert,
        smsAlert,
        pushAlert,
        now,
      });
      // Past and present alerts are never sent.
      expect(planned).toEqual(
        channels.map((channel) => ({ channel, alertTime: at('2030-03-14T13:00:00.000Z') })),
      );
    },
  );
});

describe('reconcileReminders', () => {
  const hourAhead = at('2030-03-14T13:00:00.000Z');
  const dayAhead = at('2030-03-15T12:00:00.000Z');

  it('drops pending reminders no longer planned and adds the missing ones', () => {
    const result = reconcileReminders(
      [
        { id: 'keep', channel: 'email', alertTime: hourAhead, status: 'pending' },
        { id: 'drop', channel: 'sms', alertTime: hourAhead, status: 'pending' },
      ],
      [
        { channel: 'email', alertTime: hourAhead },
        { channel: 'email', alertTime: dayAhead },
      ],
    );
    expect(result).toEqual({ drop: ['drop'], add: [{ channel: 'email', alertTime: dayAhead }] });
  });

  it.each(['sent', 'skipped', 'failed'] as const)(
    'keeps a %s reminder and never plans its key again',
    (status) => {
      const existing = [{ id: 'done', channel: 'email' as const, alertTime: hourAhead, status }];
      expect(reconcileReminders(existing, [])).toEqual({ drop: [], add: [] });
      expect(reconcileReminders(existing, [{ channel: 'email', alertTime: hourAhead }])).toEqual({
        drop: [],
        add: [],
      });
    },
  );
});

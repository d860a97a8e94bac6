import type { ReminderRow } from '#api/db/schema';

export type ReminderChannel = ReminderRow['channel'];

export interface ReminderKey {
  channel: ReminderChannel;
  alertTime: Date;
}

export interface PlanInput {
  alertTimes: readonly Date[];
  emailAlert: boolean;
  smsAlert: boolean;
  pushAlert: boolean;
  now: Date;
}

/**
 * The reminders an appointment should have: every alert still ahead, once per switched-on
 * channel. An alert already in the past when saved is never sent
 * (docs/decisions/reminder-delivery.md).
 */
export function plannedReminders({
  alertTimes,
  emailAlert,
  smsAlert,
  pushAlert,
  now,
}: PlanInput): ReminderKey[] {
  const channels: ReminderChannel[] = [
    ...(emailAlert ? (['email'] as const) : []),
    ...(smsAlert ? (['sms'] as const) : []),
    ...(pushAlert ? (['push'] as const) : []),
  ];
  return alertTimes
    .filter((alertTime) => alertTime.getTime() > now.getTime())
    .flatMap((alertTime) => channels.map((channel) => ({ channel, alertTime })));
}

const keyOf = ({ channel, alertTime }: ReminderKey) => `${channel}@${alertTime.toISOString()}`;

/**
 * How to go from the reminders there are to the planned ones: pending reminders no longer
 * planned are dropped; planned ones not there yet are added. Reminders already sent, skipped or
 * failed are history and stay, and a planned key they hold is not sent again.
 */
export function reconcileReminders(
  existing: readonly Pick<ReminderRow, 'id' | 'channel' | 'alertTime' | 'status'>[],
  planned: readonly ReminderKey[],
): { drop: string[]; add: ReminderKey[] } {
  const plannedKeys = new Set(planned.map(keyOf));
  const existingKeys = new Set(existing.map(keyOf));
  return {
    drop: existing
      .filter((reminder) => reminder.status === 'pending' && !plannedKeys.has(keyOf(reminder)))
      .map((reminder) => reminder.id),
    add: planned.filter((key) => !existingKeys.has(keyOf(key))),
  };
}

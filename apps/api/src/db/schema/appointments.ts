import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  pgEnum,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { timestamptz } from './columns';
import { users } from './account';

/** An appointment (docs/product/appointments.md#appointment-calls). The alert times are data of the
 *  appointment, sent or not. */
export const appointments = pgTable(
  'appointments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    appointmentDate: timestamptz('appointment_date').notNull(),
    /** IANA zone the member booked in: reminders and date filters use its calendar. */
    timeZone: text('time_zone').notNull(),
    note: text('note').notNull().default(''),
    emailAlert: boolean('email_alert').notNull().default(false),
    smsAlert: boolean('sms_alert').notNull().default(false),
    /** A push to the member's devices with notifications on (docs/decisions/web-push.md). */
    pushAlert: boolean('push_alert').notNull().default(false),
    alertTimes: timestamptz('alert_times')
      .array()
      .notNull()
      .default(sql`'{}'::timestamptz[]`),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (table) => [index('appointments_user_id_date_idx').on(table.userId, table.appointmentDate)],
);

export const reminderChannel = pgEnum('reminder_channel', ['email', 'sms', 'push']);
export const reminderStatus = pgEnum('reminder_status', ['pending', 'sent', 'skipped', 'failed']);

/**
 * One delivery of one alert on one channel: the outbox the job queue works from
 * (docs/decisions/reminder-delivery.md). The unique key makes each reminder exist once; the
 * row lock held while sending and `status` make the worker send it once.
 */
export const reminders = pgTable(
  'reminders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    appointmentId: uuid('appointment_id')
      .notNull()
      .references(() => appointments.id, { onDelete: 'cascade' }),
    channel: reminderChannel('channel').notNull(),
    alertTime: timestamptz('alert_time').notNull(),
    status: reminderStatus('status').notNull().default('pending'),
    /** Set once its job is in the queue; a pending reminder without it is picked up by the sweep. */
    queuedAt: timestamptz('queued_at'),
    attempts: integer('attempts').notNull().default(0),
    sentAt: timestamptz('sent_at'),
    /** Why it was skipped or failed; never personal data. */
    outcome: text('outcome'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('reminders_appointment_alert_channel_key').on(
      table.appointmentId,
      table.alertTime,
      table.channel,
    ),
    index('reminders_unqueued_idx')
      .on(table.createdAt)
      .where(sql`${table.status} = 'pending' AND ${table.queuedAt} IS NULL`),
  ],
);

/** The member's wish to be reminded of a check-up some months after their last past
 *  appointment (docs/decisions/check-up-recall.md); one row per member, none when off. */
export const checkUpRecalls = pgTable('check_up_recalls', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** 6 or 12. */
  intervalMonths: integer('interval_months').notNull(),
  email: boolean('email').notNull(),
  sms: boolean('sms').notNull(),
  updatedAt: timestamptz('updated_at').notNull(),
});

/**
 * One recall of one due date on one channel: the outbox its job works from, like reminders. The
 * unique key makes each due date's recall exist once however often the sweep runs.
 */
export const checkUpRecallNotices = pgTable(
  'check_up_recall_notices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    dueAt: timestamptz('due_at').notNull(),
    channel: reminderChannel('channel').notNull(),
    status: reminderStatus('status').notNull().default('pending'),
    queuedAt: timestamptz('queued_at'),
    attempts: integer('attempts').notNull().default(0),
    sentAt: timestamptz('sent_at'),
    /** Why it was skipped or failed; never personal data. */
    outcome: text('outcome'),
    createdAt: timestamptz('created_at').notNull(),
  },
  (table) => [
    uniqueIndex('check_up_recall_notices_due_channel_key').on(
      table.userId,
      table.dueAt,
      table.channel,
    ),
    index('check_up_recall_notices_unqueued_idx')
      .on(table.createdAt)
      .where(sql`${table.status} = 'pending' AND ${table.queuedAt} IS NULL`),
  ],
);

export type CheckUpRecallRow = typeof checkUpRecalls.$inferSelect;
export type AppointmentRow = typeof appointments.$inferSelect;
export type ReminderRow = typeof reminders.$inferSelect;

import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { messages } from './care-messages';
import { timestamptz } from './columns';

/**
 * One notice of a staff reply on one channel: the outbox the job queue works from
 * (docs/decisions/care-messages.md). Written with the reply; the row lock held while sending
 * and `status` make a worker send it once, as for appointment reminders.
 */
export const messageNotices = pgTable(
  'message_notices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    messageId: uuid('message_id')
      .notNull()
      .references(() => messages.id, { onDelete: 'cascade' }),
    channel: text('channel', { enum: ['email', 'sms'] }).notNull(),
    status: text('status', { enum: ['pending', 'sent', 'skipped', 'failed'] })
      .notNull()
      .default('pending'),
    /** Set once its job is in the queue; a pending notice without it is picked up by the sweep. */
    queuedAt: timestamptz('queued_at'),
    attempts: integer('attempts').notNull().default(0),
    sentAt: timestamptz('sent_at'),
    /** Why it was skipped or failed; never personal data. */
    outcome: text('outcome'),
    createdAt: timestamptz('created_at').notNull(),
  },
  (table) => [
    uniqueIndex('message_notices_message_channel_key').on(table.messageId, table.channel),
    index('message_notices_unqueued_idx')
      .on(table.createdAt)
      .where(sql`${table.status} = 'pending' and ${table.queuedAt} is null`),
  ],
);

export type MessageNoticeRow = typeof messageNotices.$inferSelect;

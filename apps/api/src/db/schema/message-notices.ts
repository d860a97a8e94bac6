import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { messages, photoReviews } from './care-messages';
import { outboxColumns } from './columns';

/**
 * One notice to a member on one channel, of a staff reply or of an answered review: the outbox
 * the job queue works from (docs/decisions/care-messages.md, photo-reviews.md). Written with the
 * reply or the answer; the row lock held while sending and `status` make a worker send it once,
 * as for appointment reminders.
 */
export const messageNotices = pgTable(
  'message_notices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The staff reply it tells of, or else */
    messageId: uuid('message_id').references(() => messages.id, { onDelete: 'cascade' }),
    /** the answered review it tells of. */
    reviewId: uuid('review_id').references(() => photoReviews.id, { onDelete: 'cascade' }),
    channel: text('channel', { enum: ['email', 'sms'] }).notNull(),
    ...outboxColumns(),
  },
  (table) => [
    uniqueIndex('message_notices_message_channel_key').on(table.messageId, table.channel),
    uniqueIndex('message_notices_review_channel_key').on(table.reviewId, table.channel),
    check(
      'message_notices_one_subject',
      sql`num_nonnulls(${table.messageId}, ${table.reviewId}) = 1`,
    ),
    index('message_notices_unqueued_idx')
      .on(table.createdAt)
      .where(sql`${table.status} = 'pending' and ${table.queuedAt} is null`),
  ],
);

export type MessageNoticeRow = typeof messageNotices.$inferSelect;

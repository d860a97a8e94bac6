import { pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { users } from './account';
import { timestamptz } from './columns';

/**
 * A member's private calendar feed (docs/decisions/calendar-export.md): at most one per member.
 * Only the SHA-256 of the token is kept, so a copy of the database does not open anyone's feed;
 * regenerating replaces the hash and revoking deletes the row.
 */
export const calendarFeeds = pgTable('calendar_feeds', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  tokenHash: text('token_hash').notNull().unique(),
  createdAt: timestamptz('created_at').notNull(),
});
export type CalendarFeedRow = typeof calendarFeeds.$inferSelect;

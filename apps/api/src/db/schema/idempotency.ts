import { index, integer, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { users } from './account';
import { timestamptz } from './columns';

/**
 * The first answer to each `Idempotency-Key` a member sent with a create request, replayed to
 * retries for 24 hours (docs/decisions/idempotency-keys.md). `status` is null while the first
 * request is still running.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    /** SHA-256 of method, path and body: the same key with another request is refused. */
    fingerprint: text('fingerprint').notNull(),
    status: integer('status'),
    contentType: text('content_type'),
    responseBody: text('response_body'),
    createdAt: timestamptz('created_at').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.key] }),
    index('idempotency_keys_created_at_idx').on(table.createdAt),
  ],
);
export type IdempotencyKeyRow = typeof idempotencyKeys.$inferSelect;

import { index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns';

/**
 * Fixed-window attempt counters for the rate-limited routes, kept in the database so every API
 * process behind a load balancer counts together (docs/decisions/architecture.md#scale). Keys are
 * hashed: they contain e-mail addresses and client addresses.
 */
export const rateLimitCounters = pgTable(
  'rate_limit_counters',
  {
    key: text('key').primaryKey(),
    hits: integer('hits').notNull(),
    windowEndsAt: timestamptz('window_ends_at').notNull(),
  },
  (table) => [index('rate_limit_counters_window_ends_at_idx').on(table.windowEndsAt)],
);

import { index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns';

/**
 * Failed logins per (e-mail, client address) pair, with the lock they earned
 * (docs/decisions/login-throttling.md). The key is a hash: it contains both addresses.
 */
export const loginFailures = pgTable(
  'login_failures',
  {
    key: text('key').primaryKey(),
    failures: integer('failures').notNull(),
    lockedUntil: timestamptz('locked_until'),
    /** After this the failures are forgotten and the row may be swept. */
    expiresAt: timestamptz('expires_at').notNull(),
  },
  (table) => [index('login_failures_expires_at_idx').on(table.expiresAt)],
);

import { sql } from 'drizzle-orm';
import { index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './account';
import { timestamptz } from './columns';

/**
 * Proxy access (docs/decisions/proxy-access.md): the owner lets the person at `email` view their
 * health information. `delegateId` is set when the member whose account e-mail matches accepts;
 * revoking or leaving deletes the row, so a grant exists only while it is in force.
 */
export const delegations = pgTable(
  'delegations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** As the owner typed it; matched to the invitee's account e-mail ignoring case. */
    email: text('email').notNull(),
    delegateId: uuid('delegate_id').references(() => users.id, { onDelete: 'cascade' }),
    invitedAt: timestamptz('invited_at').notNull(),
    acceptedAt: timestamptz('accepted_at'),
  },
  (table) => [
    uniqueIndex('delegations_owner_email_key').on(table.ownerId, sql`lower(${table.email})`),
    index('delegations_delegate_id_idx').on(table.delegateId),
    index('delegations_email_lower_idx').on(sql`lower(${table.email})`),
  ],
);
export type DelegationRow = typeof delegations.$inferSelect;

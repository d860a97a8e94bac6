import { sql } from 'drizzle-orm';
import { index, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { userRole, users } from './account';
import { timestamptz } from './columns';

/**
 * An invitation to a staff account (docs/decisions/clinic-staff.md): the e-mailed token, stored
 * only as its SHA-256 hash, lives 72 hours and works once.
 */
export const staffInvitations = pgTable(
  'staff_invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    name: text('name').notNull(),
    role: userRole('role').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    /** The admin who invited; null for the first admin, invited from CLINIC_ADMIN_EMAIL. */
    invitedBy: uuid('invited_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamptz('created_at').notNull(),
    expiresAt: timestamptz('expires_at').notNull(),
    /** Set when the password was chosen; with `userId` the account it made. */
    acceptedAt: timestamptz('accepted_at'),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
  },
  (table) => [index('staff_invitations_email_lower_idx').on(sql`lower(${table.email})`)],
);

/**
 * What a member shares with the practice (docs/decisions/care-team-access.md): `scope` 'all'
 * is every photo, X-ray and record, now and later; 'chosen' is the rows of
 * `careTeamSharedItems`. Revoking deletes the row, so a grant exists only while in force.
 */
export const careTeamAccess = pgTable('care_team_access', {
  memberId: uuid('member_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  scope: text('scope', { enum: ['all', 'chosen'] }).notNull(),
  grantedAt: timestamptz('granted_at').notNull(),
});

/** The chosen photos/X-rays and records of a 'chosen' grant. */
export const careTeamSharedItems = pgTable(
  'care_team_shared_items',
  {
    memberId: uuid('member_id')
      .notNull()
      .references(() => careTeamAccess.memberId, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['photo', 'record'] }).notNull(),
    itemId: uuid('item_id').notNull(),
  },
  (table) => [primaryKey({ columns: [table.memberId, table.kind, table.itemId] })],
);

export type StaffInvitationRow = typeof staffInvitations.$inferSelect;
export type CareTeamAccessRow = typeof careTeamAccess.$inferSelect;
export type CareTeamSharedItemRow = typeof careTeamSharedItems.$inferSelect;

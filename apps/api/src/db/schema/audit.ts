import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, unique, uuid } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns';

/**
 * The audit trail (docs/decisions/audit-trail.md): append-only (a trigger refuses UPDATE, DELETE
 * and TRUNCATE), one hash chain per member. No foreign key: a row outlives anything it names.
 * Never holds health content: no notes, file names or images.
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: uuid('id').primaryKey(),
    /** The member whose chain holds the row; null for failed sign-ins with an unknown e-mail. */
    memberId: uuid('member_id'),
    /** Position in the member's chain: 1, 2, 3 … without gaps. */
    seq: integer('seq').notNull(),
    at: timestamptz('at').notNull(),
    /** The member's id, 'signed link', 'payment provider' or 'anonymous'. */
    actor: text('actor').notNull(),
    action: text('action').notNull(),
    resourceType: text('resource_type').notNull(),
    resourceId: text('resource_id'),
    result: text('result').notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    requestId: text('request_id'),
    /** The hash of the previous row of the same chain; null on the first. */
    prevHash: text('prev_hash'),
    /** SHA-256 (hex) of prevHash and the row's fields (audit-hash.ts). */
    hash: text('hash').notNull(),
  },
  (table) => [
    unique('audit_events_member_seq_key').on(table.memberId, table.seq).nullsNotDistinct(),
    index('audit_events_at_idx').on(table.at),
    // Whether a member signed in from this browser before (a sign-in from a new one is marked):
    // one lookup, where the member's own index would walk a long trail to the end when the
    // answer is no (docs/decisions/scale-bench.md).
    index('audit_events_member_sign_ins_idx')
      .on(table.memberId, table.userAgent)
      .where(sql`result = 'success' and action in ('sign_in', 'sign_in_new_browser')`),
  ],
);

export type AuditEventRow = typeof auditEvents.$inferSelect;

import { integer, text, timestamp } from 'drizzle-orm/pg-core';

/** docs/decisions/architecture.md#stack: every moment is a `timestamptz`, read as a JavaScript
 *  Date. */
export const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * The columns of an outbox row that `jobs/outbox.ts` sends once (message notices, pushes): its
 * outcome, when its job was queued (a pending row without it is picked up by the sweep), the
 * failed attempts, when it was sent, why it was skipped or failed (never personal data), and when
 * it was written. A function, so that each table gets columns of its own.
 */
export const outboxColumns = () => ({
  status: text('status', { enum: ['pending', 'sent', 'skipped', 'failed'] })
    .notNull()
    .default('pending'),
  queuedAt: timestamptz('queued_at'),
  attempts: integer('attempts').notNull().default(0),
  sentAt: timestamptz('sent_at'),
  outcome: text('outcome'),
  createdAt: timestamptz('created_at').notNull(),
});

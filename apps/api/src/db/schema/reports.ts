import { check, date, index, integer, pgTable, real, text, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { reportKinds, reportStatuses } from '@dental/contracts/reports';
import { users } from './account';
import { timestamptz } from './columns';

/**
 * A PDF report a member asked for (docs/decisions/reports.md). A row that is queued, running or
 * done holds one use of the plan's yearly allowance for the calendar year of `created_at`; a
 * failed one holds none. A deleted report keeps its row (without its PDF) so that its use stays
 * counted.
 */
export const reports = pgTable(
  'reports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: reportKinds }).notNull(),
    status: text('status', { enum: reportStatuses }).notNull().default('queued'),
    progress: real('progress').notNull().default(0),
    periodFrom: date('period_from', { mode: 'string' }).notNull(),
    periodTo: date('period_to', { mode: 'string' }).notNull(),
    /** The BCP 47 locale the member asked in: it decides the paper (Letter or A4). */
    locale: text('locale').notNull(),
    /** Blob store key of the finished PDF. */
    blobKey: text('blob_key').unique(),
    sizeBytes: integer('size_bytes'),
    createdAt: timestamptz('created_at').notNull(),
    finishedAt: timestamptz('finished_at'),
    /** The member's first download through their own link; Home's 'ready' notice ends with it
     *  (a recipient's download through a share does not count). */
    downloadedAt: timestamptz('downloaded_at'),
    /** Set when the member deleted the report: it is no longer listed, its use stays spent. */
    deletedAt: timestamptz('deleted_at'),
  },
  (table) => [
    index('reports_user_id_created_at_idx').on(table.userId, table.createdAt),
    check('reports_progress_check', sql`${table.progress} between 0 and 1`),
    check('reports_period_check', sql`${table.periodFrom} <= ${table.periodTo}`),
  ],
);

export type ReportRow = typeof reports.$inferSelect;

import { check, index, integer, pgTable, real, text, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { dataExportStatuses } from '@dental/contracts/data-export';
import { users } from './account';
import { timestamptz } from './columns';

/**
 * 'Download my data' (docs/decisions/data-export.md): one row per archive a member asked for. The
 * job fills in the progress and, when done, the stored zip; the row and its zip are removed once
 * the download link has expired.
 */
export const dataExports = pgTable(
  'data_exports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status', { enum: dataExportStatuses }).notNull().default('queued'),
    progress: real('progress').notNull().default(0),
    /** Blob store key of the finished zip. */
    blobKey: text('blob_key').unique(),
    sizeBytes: integer('size_bytes'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    finishedAt: timestamptz('finished_at'),
    /** When the download link stops working and the archive is deleted. */
    expiresAt: timestamptz('expires_at'),
    /** Written every few seconds while a worker builds the archive: a running export whose
     *  heartbeat stopped lost its worker and is built again (docs/decisions/data-export.md). */
    heartbeatAt: timestamptz('heartbeat_at'),
    /** Builds started, retries and restarts after a lost worker together. */
    attempts: integer('attempts').notNull().default(0),
  },
  (table) => [
    index('data_exports_user_id_created_at_idx').on(table.userId, table.createdAt),
    index('data_exports_expires_at_idx').on(table.expiresAt),
    check('data_exports_progress_check', sql`${table.progress} between 0 and 1`),
  ],
);

export type DataExportRow = typeof dataExports.$inferSelect;

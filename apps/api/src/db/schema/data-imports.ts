import {
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
  uuid,
} from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import {
  dataImportStatuses,
  type DataImportCounts,
  type DataImportError,
} from '@dental/contracts/data-import';
import { users } from './account';
import { timestamptz } from './columns';

/**
 * 'Import a record' (docs/decisions/data-import.md): one row per file a member sent. The file
 * waits in the blob store until the job has read it, then is deleted; the row keeps the outcome.
 */
export const dataImports = pgTable(
  'data_imports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status', { enum: dataImportStatuses }).notNull().default('queued'),
    progress: real('progress').notNull().default(0),
    /** Blob store key of the file sent, while the job has not read it. */
    blobKey: text('blob_key').unique(),
    imported: jsonb('imported').$type<DataImportCounts>(),
    skipped: integer('skipped').notNull().default(0),
    errors: jsonb('errors').$type<DataImportError[]>().notNull().default([]),
    attempts: integer('attempts').notNull().default(0),
    /** When a worker took it: a `running` import taken longer ago than the queue's expiry lost
     *  its worker, and the queue's retry takes it over (docs/decisions/data-import.md#job). */
    startedAt: timestamptz('started_at'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    finishedAt: timestamptz('finished_at'),
  },
  (table) => [
    index('data_imports_user_id_created_at_idx').on(table.userId, table.createdAt),
    check('data_imports_progress_check', sql`${table.progress} between 0 and 1`),
  ],
);

export type DataImportRow = typeof dataImports.$inferSelect;

/**
 * Which resource of an imported Bundle became which row of the member's record: a second import
 * of the same Bundle finds them here and skips them (docs/decisions/data-import.md#duplicates).
 */
export const importedResources = pgTable(
  'imported_resources',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The entry's identity in its Bundle: its `urn:uuid:` full URL, else `Type/id`. */
    source: text('source').notNull(),
    /** 'oral_photo', 'medical_record', 'appointment' or 'dental_ai_result'. */
    kind: text('kind').notNull(),
    rowId: uuid('row_id').notNull(),
    importId: uuid('import_id')
      .notNull()
      .references(() => dataImports.id, { onDelete: 'cascade' }),
  },
  (table) => [primaryKey({ columns: [table.userId, table.source] })],
);

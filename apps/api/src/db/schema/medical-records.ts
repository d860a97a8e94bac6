import { date, index, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns';
import { users } from './account';

/** Medical or insurance records (docs/product/records.md#record-calls). */
export const medicalRecords = pgTable(
  'medical_records',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    recordDate: date('record_date', { mode: 'string' }).notNull(),
    note: text('note').notNull().default(''),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (table) => [index('medical_records_user_id_record_date_idx').on(table.userId, table.recordDate)],
);

/** Files attached to a record; the bytes live in the blob store. */
export const medicalFiles = pgTable(
  'medical_files',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    recordId: uuid('record_id')
      .notNull()
      .references(() => medicalRecords.id, { onDelete: 'cascade' }),
    /** The owner again, so the storage quota sums one user's files without a join. */
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    fileName: text('file_name').notNull(),
    blobKey: text('blob_key').notNull().unique(),
    contentType: text('content_type').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (table) => [
    index('medical_files_record_id_idx').on(table.recordId),
    index('medical_files_user_id_idx').on(table.userId),
  ],
);

export type MedicalRecordRow = typeof medicalRecords.$inferSelect;
export type MedicalFileRow = typeof medicalFiles.$inferSelect;

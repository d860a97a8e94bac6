import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns';

/**
 * The SHA-256 of every stored file (blob), written with the file and checked whenever it is
 * served or copied (docs/decisions/file-integrity.md): one table for every feature's files,
 * thumbnails and doctor images included.
 */
export const storedFileDigests = pgTable('stored_file_digests', {
  blobKey: text('blob_key').primaryKey(),
  /** Lower-case hex. */
  sha256: text('sha256').notNull(),
  sizeBytes: integer('size_bytes').notNull(),
  createdAt: timestamptz('created_at').notNull().defaultNow(),
});

export type StoredFileDigestRow = typeof storedFileDigests.$inferSelect;

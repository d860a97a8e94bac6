import { sql } from 'drizzle-orm';
import { check, date, index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns';
import { captureViews, photoTypes } from '@dental/contracts/oral-photo';
import { users } from './account';

/** Dated X-rays and photos (docs/product/records.md#photo-calls); the image bytes live in the blob
 *  store. */
export const oralPhotos = pgTable(
  'oral_photos',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    shootDate: date('shoot_date', { mode: 'string' }).notNull(),
    photoType: text('photo_type', { enum: photoTypes }).notNull(),
    note: text('note').notNull().default(''),
    /** Blob store key of the original (metadata stripped, upright). */
    blobKey: text('blob_key').notNull().unique(),
    contentType: text('content_type').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    /** Blob store key of the WebP thumbnail for list views. */
    thumbnailKey: text('thumbnail_key').notNull().unique(),
    thumbnailSizeBytes: integer('thumbnail_size_bytes').notNull(),
    /** Blob store key of the DICOM file the image was rendered from, kept as sent; null for
     *  images (docs/decisions/dicom-import.md). */
    originalKey: text('original_key').unique(),
    originalSizeBytes: integer('original_size_bytes'),
    /** FDI numbers of the teeth shown, ascending (docs/decisions/tooth-tags.md). */
    teeth: integer('teeth')
      .array()
      .notNull()
      .default(sql`'{}'::integer[]`),
    /** The guided capture the photo was taken in, chosen by the capture screen, and its view;
     *  both null for a photo added as a file (docs/decisions/guided-capture.md). */
    captureSetId: uuid('capture_set_id'),
    captureView: text('capture_view', { enum: captureViews }),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (table) => [
    index('oral_photos_user_id_shoot_date_idx').on(table.userId, table.shootDate),
    // `teeth @> '{16}'` for the per-tooth list; the member's own rows come from the index above.
    index('oral_photos_teeth_idx').using('gin', table.teeth),
    // One photo a view in a set; also the set's lookup, always by its member.
    uniqueIndex('oral_photos_user_id_capture_set_view_idx').on(
      table.userId,
      table.captureSetId,
      table.captureView,
    ),
    check(
      'oral_photos_capture_set_and_view',
      sql`(${table.captureSetId} is null) = (${table.captureView} is null)`,
    ),
  ],
);

export type OralPhotoRow = typeof oralPhotos.$inferSelect;

import { date, index, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns';
import { photoTypes } from '@dental/contracts/oral-photo';
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
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (table) => [index('oral_photos_user_id_shoot_date_idx').on(table.userId, table.shootDate)],
);

export type OralPhotoRow = typeof oralPhotos.$inferSelect;

import { index, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns';
import { dentalAiTypes } from '@dental/contracts/dental-ai';
import { imageKinds } from '@dental/contracts/image-kind';
import type { Detection } from '#api/adapters/detector/detector';
import { users } from './account';
import { oralPhotos } from './oral-photo';

/**
 * Dental AI runs (docs/product/dental-ai.md#dental-ai-calls): the image as detected, the boxes and
 * the model that drew them. A member may delete a result; the use it spent stays in
 * `dentalAiUses`.
 */
export const dentalAiResults = pgTable(
  'dental_ai_results',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    dentalAi: text('dental_ai', { enum: dentalAiTypes }).notNull(),
    /** Blob store key of the image, upright and without metadata: the pixels the boxes refer to. */
    blobKey: text('blob_key').notNull().unique(),
    contentType: text('content_type').notNull(),
    imageWidth: integer('image_width').notNull(),
    imageHeight: integer('image_height').notNull(),
    detections: jsonb('detections').$type<Detection[]>().notNull(),
    /** What the image was treated as, so which model ran; results from before photos had a model
     *  of their own were all read as X-rays. */
    imageKind: text('image_kind', { enum: imageKinds }).notNull().default('xray'),
    /** Whether the member said the kind on the form, or the pixels decided. */
    imageKindSource: text('image_kind_source', { enum: ['member', 'pixels'] })
      .notNull()
      .default('pixels'),
    /** The stored photo or X-ray the detection ran on (the image was copied, so the result stays
     *  whole when the photo is deleted); null for an upload. */
    oralPhotoId: uuid('oral_photo_id').references(() => oralPhotos.id, { onDelete: 'set null' }),
    modelName: text('model_name').notNull(),
    modelVersion: text('model_version').notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (table) => [
    index('dental_ai_results_user_id_created_at_idx').on(table.userId, table.createdAt),
    index('dental_ai_results_oral_photo_id_idx').on(table.oralPhotoId),
  ],
);

export type DentalAiResultRow = typeof dentalAiResults.$inferSelect;

/**
 * One row per Dental AI run: the uses counted against the plan's yearly diagnoses
 * (docs/product/dental-ai.md#limits). Kept apart from the results so that deleting a result
 * removes the health data without giving the use back (docs/decisions/dental-ai-past-results.md).
 */
export const dentalAiUses = pgTable(
  'dental_ai_uses',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (table) => [index('dental_ai_uses_user_id_created_at_idx').on(table.userId, table.createdAt)],
);

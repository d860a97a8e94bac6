import { date, customType, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns';

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  // PGlite hands back a Uint8Array, node-postgres a Buffer.
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/**
 * Pictures of our own content (SVG covers), addressed by the SHA-256 of their bytes so that a
 * changed picture gets a new address and each address may be cached for good.
 */
export const contentImages = pgTable('content_images', {
  sha256: text('sha256').primaryKey(),
  mediaType: text('media_type').notNull(),
  body: bytea('body').notNull(),
  /** What the picture shows (the SVG's own <title>), for alt text. */
  description: text('description').notNull(),
});

/** Columns every markdown page loaded from content/ has. */
const pageColumns = () => ({
  /** UUID v5 of the slug: the same page keeps its id across restarts and databases. */
  id: uuid('id').primaryKey(),
  /** The file name without `.md`. */
  slug: text('slug').notNull().unique(),
  title: text('title').notNull(),
  /** Display order, from the titles (computed by the loader). */
  position: integer('position').notNull(),
  coverSha256: text('cover_sha256')
    .notNull()
    .references(() => contentImages.sha256),
  bodyMarkdown: text('body_markdown').notNull(),
  /** SHA-256 of the markdown, the ETag of the document. */
  bodySha256: text('body_sha256').notNull(),
  loadedAt: timestamptz('loaded_at').notNull(),
});

/** Dental knowledge articles (content/knowledge/*.md). */
export const knowledgeArticles = pgTable('knowledge_articles', {
  ...pageColumns(),
  updatedOn: date('updated_on', { mode: 'string' }).notNull(),
});

/** Oral-hygiene supplier pages (content/suppliers/*.md). */
export const supplierPages = pgTable('supplier_pages', {
  ...pageColumns(),
  buyUrl: text('buy_url'),
  /** Products a member can order from the page, as its front matter lists them. */
  products: jsonb('products').$type<SupplierProduct[]>().notNull().default([]),
});

/** One product of a supplier page; `id` is unique across every page. */
export interface SupplierProduct {
  id: string;
  name: string;
  priceCents: number;
}

/** Headings of content sections (content/suppliers/_topic.md is the key 'oral-supplier'). */
export const contentTopics = pgTable('content_topics', {
  key: text('key').primaryKey(),
  title: text('title').notNull(),
  imageSha256: text('image_sha256')
    .notNull()
    .references(() => contentImages.sha256),
  bodyMarkdown: text('body_markdown').notNull(),
  bodySha256: text('body_sha256').notNull(),
  loadedAt: timestamptz('loaded_at').notNull(),
});

export type ContentImageRow = typeof contentImages.$inferSelect;

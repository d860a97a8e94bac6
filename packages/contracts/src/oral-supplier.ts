import { z } from 'zod';
import { contentId } from './dental-knowledge';
import { product } from './shop';

/** docs/product/knowledge.md#knowledge-and-supplier-calls: the list, a supplier and the topic
 *  heading need the bearer token; the markdown documents and the pictures they point to do not
 *  (they are fetched without a credential). */
export const oralSupplierPath = '/api/oral-supplier/';
export const oralSupplierTopicPath = '/api/oral-supplier/topic/';

export function oralSupplierItemPath(id: string): string {
  return `${oralSupplierPath}${encodeURIComponent(id)}/`;
}

export const supplierParams = z.object({ supplierId: contentId });

/** One entry of GET /api/oral-supplier/ (docs/product/knowledge.md#knowledge-and-supplier-calls:
 *  id, title, cover_image). */
export const supplierListItem = z.object({
  id: z.uuid(),
  title: z.string(),
  cover_image: z.string(),
  cover_alt: z.string(),
});
export type SupplierListItem = z.infer<typeof supplierListItem>;

export const supplierList = z.array(supplierListItem);

/** GET /api/oral-supplier/{supplierId}/ (docs/product/knowledge.md#supplier-page: plus where the
 *  product is sold). */
export const supplier = z.object({
  id: z.uuid(),
  title: z.string(),
  cover_image: z.string(),
  cover_alt: z.string(),
  content_markdown: z.string(),
  /** A manufacturer's own https page; null when the page names no single place to buy. */
  buy_url: z.string().nullable(),
  /** What a member can order here with card and points (docs/product/shop.md). */
  products: z.array(product),
});
export type Supplier = z.infer<typeof supplier>;

/** GET /api/oral-supplier/topic/: the heading and picture above the supplier cards, and an
 *  introduction (docs/decisions/oral-supplier-topic.md). */
export const supplierTopic = z.object({
  title: z.string(),
  image: z.string(),
  image_alt: z.string(),
  content_markdown: z.string(),
});
export type SupplierTopic = z.infer<typeof supplierTopic>;

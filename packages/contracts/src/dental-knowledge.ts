import { z } from 'zod';

/** docs/product/knowledge.md#knowledge-and-supplier-calls. Every knowledge call, the markdown
 *  included, is answered without a credential. */
export const dentalKnowledgePath = '/api/dental-knowledge/';

export function dentalKnowledgeArticlePath(id: string): string {
  return `${dentalKnowledgePath}${encodeURIComponent(id)}/`;
}

/** Knowledge and supplier ids: UUIDs derived from the content file's name, stable across restarts. */
export const contentId = z.uuid('Enter a valid id.');

export const knowledgeParams = z.object({ knowledgeId: contentId });

/** One entry of GET /api/dental-knowledge/
 *  (docs/product/knowledge.md#knowledge-and-supplier-calls). */
export const knowledgeListItem = z.object({
  id: z.uuid(),
  title: z.string(),
  /** Date of the last substantive edit, YYYY-MM-DD. */
  update_date: z.iso.date(),
  /** Address of the cover picture (served with long caching). */
  cover_image: z.string(),
  /** What the cover shows, for its alt text. */
  cover_alt: z.string(),
  /** Address of the article's markdown text, fetched separately. */
  content_markdown: z.string(),
});
export type KnowledgeListItem = z.infer<typeof knowledgeListItem>;

export const knowledgeList = z.array(knowledgeListItem);

/** GET /api/dental-knowledge/{knowledgeId}/
 *  (docs/product/knowledge.md#knowledge-and-supplier-calls: title, updateDate,
 *  content_markdown). */
export const knowledgeArticle = z.object({
  id: z.uuid(),
  title: z.string(),
  updateDate: z.iso.date(),
  content_markdown: z.string(),
});
export type KnowledgeArticle = z.infer<typeof knowledgeArticle>;

/** The media type of every markdown document the API serves. */
export const markdownContentType = 'text/markdown; charset=utf-8';

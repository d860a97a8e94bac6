import { z } from 'zod';
import { singleLineText } from './text';

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
  /** Only in a search's answer: a passage of the text around the first word found, or the
   *  text's opening when only the title matched. */
  excerpt: z.string().optional(),
});
export type KnowledgeListItem = z.infer<typeof knowledgeListItem>;

export const knowledgeList = z.array(knowledgeListItem);

export const knowledgeSearchMaxLength = 100;
export const knowledgeSearchTooLongMessage = `A search is at most ${String(knowledgeSearchMaxLength)} characters.`;

/** GET /api/dental-knowledge/?q=: the articles whose title or text holds every word of `q`
 *  (docs/product/knowledge.md#search); no `q`, or only spaces, answers the whole list. */
export const knowledgeListQuery = z.object({
  q: singleLineText()
    .trim()
    .max(knowledgeSearchMaxLength, knowledgeSearchTooLongMessage)
    .optional(),
});

/** The words of a search, lower-cased and each once: an article matches when it holds them
 *  all, and the screen marks each one where it appears. */
export function searchWords(query: string): string[] {
  const words = query
    .toLocaleLowerCase('en')
    .split(/\s+/u)
    .filter((word) => word !== '');
  return [...new Set(words)];
}

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

import {
  dentalKnowledgeArticlePath,
  searchWords,
  type KnowledgeArticle,
  type KnowledgeListItem,
} from '@dental/contracts';
import { NotFound } from '#api/domain-errors';
import { contentImagePath } from '../content/content-paths';
import type { MarkdownDocument } from '../content/markdown-reply';
import type { DentalKnowledgeRepository } from './dental-knowledge.repository';
import { excerptOf, holdsEveryWord, plainTextOf } from './knowledge-search';

export const articleNotFoundMessage = 'This article does not exist.';

/** Where an article's markdown is served: beside its record, without a credential. */
export function knowledgeMarkdownPath(id: string): string {
  return `${dentalKnowledgeArticlePath(id)}markdown/`;
}

function toListItem(row: {
  id: string;
  title: string;
  updatedOn: string;
  coverSha256: string;
  coverDescription: string;
}): KnowledgeListItem {
  return {
    id: row.id,
    title: row.title,
    update_date: row.updatedOn,
    cover_image: contentImagePath(row.coverSha256),
    cover_alt: row.coverDescription,
    content_markdown: knowledgeMarkdownPath(row.id),
  };
}

/** Dental knowledge articles (docs/product/knowledge.md); public reading. */
export class DentalKnowledgeService {
  constructor(private readonly repository: DentalKnowledgeRepository) {}

  /** Every article in title order; with a search, those whose title or text holds every word,
   *  each with a passage around what was found. */
  async list(query = ''): Promise<KnowledgeListItem[]> {
    const words = searchWords(query);
    if (words.length === 0) return (await this.repository.list()).map(toListItem);
    // The articles are few and ours (knowledgeListLimit): searching their plain text here finds
    // words as the reader sees them, not inside link addresses or markdown marks.
    const rows = await this.repository.listWithText();
    return rows.flatMap((row) => {
      const text = plainTextOf(row.bodyMarkdown);
      return holdsEveryWord(row.title, text, words)
        ? [{ ...toListItem(row), excerpt: excerptOf(text, words) }]
        : [];
    });
  }

  async get(id: string): Promise<KnowledgeArticle> {
    const row = await this.repository.findById(id);
    if (row === undefined) throw new NotFound(articleNotFoundMessage);
    return {
      id: row.id,
      title: row.title,
      updateDate: row.updatedOn,
      content_markdown: knowledgeMarkdownPath(row.id),
    };
  }

  async markdown(id: string): Promise<MarkdownDocument> {
    const document = await this.repository.findMarkdown(id);
    if (document === undefined) throw new NotFound(articleNotFoundMessage);
    return document;
  }
}

import {
  dentalKnowledgeArticlePath,
  type KnowledgeArticle,
  type KnowledgeListItem,
} from '@dental/contracts';
import { NotFound } from '#api/domain-errors';
import { contentImagePath } from '../content/content-paths';
import type { MarkdownDocument } from '../content/markdown-reply';
import type { DentalKnowledgeRepository } from './dental-knowledge.repository';

export const articleNotFoundMessage = 'This article does not exist.';

/** Where an article's markdown is served: beside its record, without a credential. */
export function knowledgeMarkdownPath(id: string): string {
  return `${dentalKnowledgeArticlePath(id)}markdown/`;
}

/** Dental knowledge articles (docs/product/knowledge.md); public reading. */
export class DentalKnowledgeService {
  constructor(private readonly repository: DentalKnowledgeRepository) {}

  /** Every article in title order. */
  async list(): Promise<KnowledgeListItem[]> {
    const rows = await this.repository.list();
    return rows.map((row) => ({
      id: row.id,
      title: row.title,
      update_date: row.updatedOn,
      cover_image: contentImagePath(row.coverSha256),
      cover_alt: row.coverDescription,
      content_markdown: knowledgeMarkdownPath(row.id),
    }));
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

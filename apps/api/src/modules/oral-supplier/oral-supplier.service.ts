import {
  oralSupplierItemPath,
  oralSupplierTopicPath,
  type Supplier,
  type SupplierListItem,
  type SupplierTopic,
} from '@dental/contracts';
import { NotFound } from '#api/domain-errors';
import { supplierTopicKey } from '../content/content-loader.service';
import { contentImagePath } from '../content/content-paths';
import type { MarkdownDocument } from '../content/markdown-reply';
import type { OralSupplierRepository } from './oral-supplier.repository';

export const supplierNotFoundMessage = 'This supplier page does not exist.';

/** Where a supplier page's markdown is served: beside its record, without a credential. */
export function supplierMarkdownPath(id: string): string {
  return `${oralSupplierItemPath(id)}markdown/`;
}

export const supplierTopicMarkdownPath = `${oralSupplierTopicPath}markdown/`;

/** Oral-hygiene supplier pages and their topic heading
 *  (docs/product/knowledge.md#supplier-list). */
export class OralSupplierService {
  constructor(private readonly repository: OralSupplierRepository) {}

  /** Every supplier page in title order. */
  async list(): Promise<SupplierListItem[]> {
    const rows = await this.repository.list();
    return rows.map((row) => ({
      id: row.id,
      title: row.title,
      cover_image: contentImagePath(row.coverSha256),
      cover_alt: row.coverDescription,
    }));
  }

  async get(id: string): Promise<Supplier> {
    const row = await this.repository.findById(id);
    if (row === undefined) throw new NotFound(supplierNotFoundMessage);
    return {
      id: row.id,
      title: row.title,
      cover_image: contentImagePath(row.coverSha256),
      cover_alt: row.coverDescription,
      content_markdown: supplierMarkdownPath(row.id),
      buy_url: row.buyUrl,
      products: row.products.map((entry) => ({
        id: entry.id,
        name: entry.name,
        price_cents: entry.priceCents,
      })),
    };
  }

  async markdown(id: string): Promise<MarkdownDocument> {
    const document = await this.repository.findMarkdown(id);
    if (document === undefined) throw new NotFound(supplierNotFoundMessage);
    return document;
  }

  /** The heading above the supplier cards; the loader refuses to start without it. */
  async topic(): Promise<SupplierTopic> {
    const row = await this.topicRow();
    return {
      title: row.title,
      image: contentImagePath(row.imageSha256),
      image_alt: row.imageDescription,
      content_markdown: supplierTopicMarkdownPath,
    };
  }

  async topicMarkdown(): Promise<MarkdownDocument> {
    const { markdown, sha256 } = await this.topicRow();
    return { markdown, sha256 };
  }

  private async topicRow() {
    const row = await this.repository.findTopic(supplierTopicKey);
    if (row === undefined) throw new NotFound(supplierNotFoundMessage);
    return row;
  }
}

import { createHash } from 'node:crypto';
import type { Clock } from '#api/clock';
import type { ContentRepository, ContentRows } from './content.repository';
import { readContent, type ContentImage, type ContentPage } from './content-files';
import { uuidV5 } from '#api/lib/uuid-v5';

/** Namespaces of the page ids: a knowledge slug and a supplier slug never share an id. */
const knowledgeNamespace = 'dda01df6-ed51-4dd5-865f-b5b16ef73177';
const supplierNamespace = '8de573bd-7bc0-4582-9032-fdb7921d9850';

/** The key of the supplier topic heading (content/suppliers/_topic.md). */
export const supplierTopicKey = 'oral-supplier';

export const knowledgeIdOf = (slug: string) => uuidV5(slug, knowledgeNamespace);
export const supplierIdOf = (slug: string) => uuidV5(slug, supplierNamespace);

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** Display order: alphabetical by title as an English reader expects, then by slug. */
function positions<T extends ContentPage>(pages: T[]): Map<T, number> {
  const sorted = [...pages].sort(
    (a, b) =>
      a.title.localeCompare(b.title, 'en', { sensitivity: 'base' }) || a.slug.localeCompare(b.slug),
  );
  return new Map(sorted.map((page, index) => [page, index]));
}

export interface ContentSummary {
  knowledge: number;
  suppliers: number;
  images: number;
}

/**
 * Loads content/ into the database at start (docs/decisions/content-loading.md): the files are
 * what we write, the database is what the API reads. Loading twice changes nothing.
 */
export class ContentLoaderService {
  constructor(
    private readonly repository: ContentRepository,
    private readonly clock: Clock,
  ) {}

  /** Reads and checks every file first, so a broken file leaves the database as it was. */
  async load(contentDir: string): Promise<ContentSummary> {
    const content = await readContent(contentDir);
    const loadedAt = this.clock.now();
    const images = new Map<string, ContentImage>();
    const image = (picture: ContentImage) => {
      images.set(picture.sha256, picture);
      return picture.sha256;
    };
    const knowledgeOrder = positions(content.knowledge);
    const supplierOrder = positions(content.suppliers);
    const page = (entry: ContentPage, order: Map<ContentPage, number>) => ({
      slug: entry.slug,
      title: entry.title,
      position: order.get(entry) ?? 0,
      coverSha256: image(entry.cover),
      bodyMarkdown: entry.markdown,
      bodySha256: sha256(entry.markdown),
      loadedAt,
    });
    const { supplierTopic } = content;
    const rows: ContentRows = {
      knowledge: content.knowledge.map((article) => ({
        ...page(article, knowledgeOrder),
        id: knowledgeIdOf(article.slug),
        updatedOn: article.updatedOn,
      })),
      suppliers: content.suppliers.map((supplier) => ({
        ...page(supplier, supplierOrder),
        id: supplierIdOf(supplier.slug),
        buyUrl: supplier.buyUrl,
        products: supplier.products,
      })),
      topics: [
        {
          key: supplierTopicKey,
          title: supplierTopic.title,
          imageSha256: image(supplierTopic.image),
          bodyMarkdown: supplierTopic.markdown,
          bodySha256: sha256(supplierTopic.markdown),
          loadedAt,
        },
      ],
      images: [],
    };
    rows.images = [...images.values()].map(({ sha256: hash, mediaType, body, description }) => ({
      sha256: hash,
      mediaType,
      body,
      description,
    }));
    await this.repository.replaceAll(rows);
    return {
      knowledge: rows.knowledge.length,
      suppliers: rows.suppliers.length,
      images: rows.images.length,
    };
  }
}

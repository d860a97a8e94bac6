import { asc, eq } from 'drizzle-orm';
import type { Database } from '#api/db/client';
import { contentImages, contentTopics, supplierPages } from '#api/db/schema';

/** Supplier pages are few and written by us; the bound only guards against a runaway folder. */
export const supplierListLimit = 500;

const supplierColumns = {
  id: supplierPages.id,
  title: supplierPages.title,
  coverSha256: supplierPages.coverSha256,
  coverDescription: contentImages.description,
};

/** Reads of the supplier pages and their topic heading that the content loader wrote. */
export class OralSupplierRepository {
  constructor(private readonly db: Database) {}

  list() {
    return this.db
      .select(supplierColumns)
      .from(supplierPages)
      .innerJoin(contentImages, eq(contentImages.sha256, supplierPages.coverSha256))
      .orderBy(asc(supplierPages.position), asc(supplierPages.id))
      .limit(supplierListLimit);
  }

  async findById(id: string) {
    const [row] = await this.db
      .select({
        ...supplierColumns,
        buyUrl: supplierPages.buyUrl,
        products: supplierPages.products,
      })
      .from(supplierPages)
      .innerJoin(contentImages, eq(contentImages.sha256, supplierPages.coverSha256))
      .where(eq(supplierPages.id, id));
    return row;
  }

  async findMarkdown(id: string) {
    const [row] = await this.db
      .select({ markdown: supplierPages.bodyMarkdown, sha256: supplierPages.bodySha256 })
      .from(supplierPages)
      .where(eq(supplierPages.id, id));
    return row;
  }

  async findTopic(key: string) {
    const [row] = await this.db
      .select({
        title: contentTopics.title,
        imageSha256: contentTopics.imageSha256,
        imageDescription: contentImages.description,
        markdown: contentTopics.bodyMarkdown,
        sha256: contentTopics.bodySha256,
      })
      .from(contentTopics)
      .innerJoin(contentImages, eq(contentImages.sha256, contentTopics.imageSha256))
      .where(eq(contentTopics.key, key));
    return row;
  }
}

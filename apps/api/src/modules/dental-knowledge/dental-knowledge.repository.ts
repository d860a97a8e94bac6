import { asc, eq } from 'drizzle-orm';
import type { Database } from '#api/db/client';
import { contentImages, knowledgeArticles } from '#api/db/schema';

/** Knowledge articles are few and written by us; the bound only guards against a runaway folder. */
export const knowledgeListLimit = 500;

/** Reads of the knowledge articles the content loader wrote. */
export class DentalKnowledgeRepository {
  constructor(private readonly db: Database) {}

  list() {
    return this.listed({});
  }

  /** The list with each article's markdown, for a search over title and text. */
  listWithText() {
    return this.listed({ bodyMarkdown: knowledgeArticles.bodyMarkdown });
  }

  private listed<Extra extends Record<string, typeof knowledgeArticles.bodyMarkdown>>(
    extra: Extra,
  ) {
    return this.db
      .select({
        id: knowledgeArticles.id,
        title: knowledgeArticles.title,
        updatedOn: knowledgeArticles.updatedOn,
        coverSha256: knowledgeArticles.coverSha256,
        coverDescription: contentImages.description,
        ...extra,
      })
      .from(knowledgeArticles)
      .innerJoin(contentImages, eq(contentImages.sha256, knowledgeArticles.coverSha256))
      .orderBy(asc(knowledgeArticles.position), asc(knowledgeArticles.id))
      .limit(knowledgeListLimit);
  }

  async findById(id: string) {
    const [row] = await this.db
      .select({
        id: knowledgeArticles.id,
        title: knowledgeArticles.title,
        updatedOn: knowledgeArticles.updatedOn,
      })
      .from(knowledgeArticles)
      .where(eq(knowledgeArticles.id, id));
    return row;
  }

  async findMarkdown(id: string) {
    const [row] = await this.db
      .select({ markdown: knowledgeArticles.bodyMarkdown, sha256: knowledgeArticles.bodySha256 })
      .from(knowledgeArticles)
      .where(eq(knowledgeArticles.id, id));
    return row;
  }
}

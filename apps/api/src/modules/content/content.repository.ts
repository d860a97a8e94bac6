import { eq, notInArray, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Database } from '#api/db/client';
import {
  contentImages,
  contentTopics,
  knowledgeArticles,
  supplierPages,
  type ContentImageRow,
} from '#api/db/schema';

type ImageRow = typeof contentImages.$inferInsert;
type KnowledgeRow = typeof knowledgeArticles.$inferInsert;
type SupplierRow = typeof supplierPages.$inferInsert;
type TopicRow = typeof contentTopics.$inferInsert;

/** The rows one content load writes; everything not named here is removed. */
export interface ContentRows {
  images: ImageRow[];
  knowledge: KnowledgeRow[];
  suppliers: SupplierRow[];
  topics: TopicRow[];
}

/** Serialises loads from API processes starting at the same time on one PostgreSQL. */
const contentLoadLockId = 7_310_143;

/** The value the conflicting insert proposed for `column` (ON CONFLICT … DO UPDATE). */
const proposed = (column: PgColumn) => sql.raw(`excluded."${column.name}"`);

function proposedValues<const C extends Record<string, PgColumn>>(columns: C) {
  return Object.fromEntries(
    Object.entries(columns).map(([key, column]) => [key, proposed(column)]),
  ) as Record<keyof C, ReturnType<typeof proposed>>;
}

/** The only code that writes the content tables, and that reads the pictures. */
export class ContentRepository {
  constructor(private readonly db: Database) {}

  /**
   * Makes the tables hold exactly `rows`, in one transaction: pages are upserted by id (derived
   * from the slug), pages and pictures that are no longer named are deleted.
   */
  async replaceAll(rows: ContentRows): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(${contentLoadLockId})`);
      if (rows.images.length > 0) {
        await tx.insert(contentImages).values(rows.images).onConflictDoNothing();
      }
      if (rows.knowledge.length > 0) {
        const { title, position, coverSha256, bodyMarkdown, bodySha256, loadedAt, updatedOn } =
          knowledgeArticles;
        await tx
          .insert(knowledgeArticles)
          .values(rows.knowledge)
          .onConflictDoUpdate({
            target: knowledgeArticles.id,
            set: proposedValues({
              title,
              position,
              coverSha256,
              bodyMarkdown,
              bodySha256,
              loadedAt,
              updatedOn,
            }),
          });
      }
      await tx.delete(knowledgeArticles).where(
        notInArray(
          knowledgeArticles.id,
          rows.knowledge.map((row) => row.id),
        ),
      );
      if (rows.suppliers.length > 0) {
        const {
          title,
          position,
          coverSha256,
          bodyMarkdown,
          bodySha256,
          loadedAt,
          buyUrl,
          products,
        } = supplierPages;
        await tx
          .insert(supplierPages)
          .values(rows.suppliers)
          .onConflictDoUpdate({
            target: supplierPages.id,
            set: proposedValues({
              title,
              position,
              coverSha256,
              bodyMarkdown,
              bodySha256,
              loadedAt,
              buyUrl,
              products,
            }),
          });
      }
      await tx.delete(supplierPages).where(
        notInArray(
          supplierPages.id,
          rows.suppliers.map((row) => row.id),
        ),
      );
      if (rows.topics.length > 0) {
        const { title, imageSha256, bodyMarkdown, bodySha256, loadedAt } = contentTopics;
        await tx
          .insert(contentTopics)
          .values(rows.topics)
          .onConflictDoUpdate({
            target: contentTopics.key,
            set: proposedValues({ title, imageSha256, bodyMarkdown, bodySha256, loadedAt }),
          });
      }
      await tx.delete(contentTopics).where(
        notInArray(
          contentTopics.key,
          rows.topics.map((row) => row.key),
        ),
      );
      await tx.delete(contentImages).where(
        notInArray(
          contentImages.sha256,
          rows.images.map((row) => row.sha256),
        ),
      );
    });
  }

  async findImage(sha256: string): Promise<ContentImageRow | undefined> {
    const [row] = await this.db
      .select()
      .from(contentImages)
      .where(eq(contentImages.sha256, sha256));
    return row;
  }
}

import { and, count, desc, eq, gte, inArray } from 'drizzle-orm';
import type { PageRequest } from '@dental/contracts';
import type { Database } from '#api/db/client';
import { dentalAiResults, dentalAiUses, type DentalAiResultRow } from '#api/db/schema';
import { insertedRow } from '#api/db/inserted-row';
import { rowsToFetch } from '#api/lib/pagination';

/** A result to store; one run on an upload has no photo. */
export type NewDentalAiResult = Omit<
  DentalAiResultRow,
  'id' | 'userId' | 'createdAt' | 'oralPhotoId'
> & { oralPhotoId?: string | null };

/** The only code that reads or writes Dental AI results; every query is bounded to one member. */
export class DentalAiRepository {
  constructor(readonly db: Database) {}

  /** Runs `work` in one transaction; `tx` is handed on to the quota check. */
  transaction<T>(work: (repository: DentalAiRepository, tx: Database) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => work(new DentalAiRepository(tx), tx));
  }

  async find(userId: string, id: string): Promise<DentalAiResultRow | undefined> {
    const [row] = await this.db
      .select()
      .from(dentalAiResults)
      .where(and(eq(dentalAiResults.userId, userId), eq(dentalAiResults.id, id)));
    return row;
  }

  /** The member's results among `ids`, newest first; another member's ids find nothing. */
  findMany(userId: string, ids: readonly string[]): Promise<DentalAiResultRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db
      .select()
      .from(dentalAiResults)
      .where(and(eq(dentalAiResults.userId, userId), inArray(dentalAiResults.id, [...ids])))
      .orderBy(desc(dentalAiResults.createdAt), desc(dentalAiResults.id));
  }

  /** The member's results (of one stored photo, when asked), newest first, one row more than
   *  the page (lib/pagination). */
  list(
    userId: string,
    page: PageRequest & { oral_photo_id?: string | undefined },
  ): Promise<DentalAiResultRow[]> {
    return this.db
      .select()
      .from(dentalAiResults)
      .where(
        and(
          eq(dentalAiResults.userId, userId),
          page.oral_photo_id === undefined
            ? undefined
            : eq(dentalAiResults.oralPhotoId, page.oral_photo_id),
        ),
      )
      .orderBy(desc(dentalAiResults.createdAt), desc(dentalAiResults.id))
      .limit(rowsToFetch(page))
      .offset(page.offset);
  }

  /** The member's runs since `since`: the uses counted against the plan, deleted results too. */
  async countSince(userId: string, since: Date): Promise<number> {
    const [row] = await this.db
      .select({ runs: count() })
      .from(dentalAiUses)
      .where(and(eq(dentalAiUses.userId, userId), gte(dentalAiUses.createdAt, since)));
    return row?.runs ?? 0;
  }

  /** Stores a result and the use it spends, in one statement (one round trip less in the
   *  result's transaction); call inside `transaction`. */
  async insert(userId: string, values: NewDentalAiResult, now: Date): Promise<DentalAiResultRow> {
    // PostgreSQL runs a data-modifying CTE to completion whether or not the query reads it.
    const use = this.db.$with('use').as(
      this.db.insert(dentalAiUses).values({ userId, createdAt: now }).returning({
        id: dentalAiUses.id,
      }),
    );
    return insertedRow(
      await this.db
        .with(use)
        .insert(dentalAiResults)
        .values({ ...values, userId, createdAt: now })
        .returning(),
    );
  }

  async delete(userId: string, id: string): Promise<DentalAiResultRow | undefined> {
    const [row] = await this.db
      .delete(dentalAiResults)
      .where(and(eq(dentalAiResults.userId, userId), eq(dentalAiResults.id, id)))
      .returning();
    return row;
  }
}

import { and, count, eq, gte } from 'drizzle-orm';
import type { Database } from '#api/db/client';
import { dentalAiResults, type DentalAiResultRow } from '#api/db/schema';
import { insertedRow } from '#api/db/inserted-row';

export type NewDentalAiResult = Omit<DentalAiResultRow, 'id' | 'userId' | 'createdAt'>;

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

  /** The member's runs since `since`: the uses counted against the plan. */
  async countSince(userId: string, since: Date): Promise<number> {
    const [row] = await this.db
      .select({ runs: count() })
      .from(dentalAiResults)
      .where(and(eq(dentalAiResults.userId, userId), gte(dentalAiResults.createdAt, since)));
    return row?.runs ?? 0;
  }

  async insert(userId: string, values: NewDentalAiResult, now: Date): Promise<DentalAiResultRow> {
    const row = insertedRow(
      await this.db
        .insert(dentalAiResults)
        .values({ ...values, userId, createdAt: now })
        .returning(),
    );
    return row;
  }
}

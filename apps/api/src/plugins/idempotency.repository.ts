import { and, eq, isNull, lt } from 'drizzle-orm';
import type { Database } from '../db/client';
import { idempotencyKeys, type IdempotencyKeyRow } from '../db/schema';

export interface StoredAnswer {
  status: number;
  contentType: string | null;
  body: string;
}

/** The create requests' Idempotency-Keys and their first answers (docs/decisions/idempotency-keys.md). */
export class IdempotencyRepository {
  constructor(private readonly db: Database) {}

  /**
   * Claims the key for a new request; false when the member already used it. The primary key
   * makes exactly one of two concurrent claims win.
   */
  async claim(userId: string, key: string, fingerprint: string, now: Date): Promise<boolean> {
    const rows = await this.db
      .insert(idempotencyKeys)
      .values({ userId, key, fingerprint, createdAt: now })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
    return rows.length > 0;
  }

  async find(userId: string, key: string): Promise<IdempotencyKeyRow | undefined> {
    const [row] = await this.db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
    return row;
  }

  async complete(userId: string, key: string, answer: StoredAnswer): Promise<void> {
    await this.db
      .update(idempotencyKeys)
      .set({ status: answer.status, contentType: answer.contentType, responseBody: answer.body })
      .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
  }

  /** Lets go of a claim whose request ended without an answer worth replaying. */
  async release(userId: string, key: string): Promise<void> {
    await this.db
      .delete(idempotencyKeys)
      .where(
        and(
          eq(idempotencyKeys.userId, userId),
          eq(idempotencyKeys.key, key),
          isNull(idempotencyKeys.status),
        ),
      );
  }

  async deleteCreatedBefore(cutoff: Date): Promise<void> {
    await this.db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, cutoff));
  }
}

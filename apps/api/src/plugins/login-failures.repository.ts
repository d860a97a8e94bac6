import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import type { RateLimitConfig } from '../config';
import { loginFailures } from '../db/schema';

export interface LockPolicy {
  /** The failure that first locks the key. */
  lockAfterFailures: number;
  lockMs: number;
  maxLockMs: number;
  /** How long failures are remembered after the last one (or after the lock ends). */
  memoryMs: number;
}

/** The configured locks, shared by wrong passwords and wrong second-factor codes. */
export function loginLockPolicy(limits: RateLimitConfig): LockPolicy {
  return {
    lockAfterFailures: limits.loginLockAfterFailures,
    lockMs: limits.loginLockSeconds * 1000,
    maxLockMs: limits.loginLockMaxSeconds * 1000,
    memoryMs: limits.windowSeconds * 1000,
  };
}

/**
 * Failed logins per (e-mail, client address) key, shared by every API process through the
 * database (docs/decisions/login-throttling.md).
 */
export class LoginFailureRepository {
  constructor(private readonly db: Database) {}

  /** When the key is locked, the end of its lock. */
  async lockedUntil(key: string, now: Date): Promise<Date | undefined> {
    const [row] = await this.db
      .select({ lockedUntil: loginFailures.lockedUntil })
      .from(loginFailures)
      .where(and(eq(loginFailures.key, key), gt(loginFailures.lockedUntil, now)));
    return row?.lockedUntil ?? undefined;
  }

  /**
   * Counts one failure; from the `lockAfterFailures`-th on, each failure locks the key, each
   * time twice as long as the last (capped). Failures older than the memory start over.
   */
  async fail(key: string, policy: LockPolicy, now: Date): Promise<void> {
    const nowParam = sql`${now.toISOString()}::timestamptz`;
    const forgotten = sql`${loginFailures.expiresAt} <= ${nowParam}`;
    const expiresAt = new Date(now.getTime() + policy.memoryMs);
    const [row] = await this.db
      .insert(loginFailures)
      .values({ key, failures: 1, expiresAt })
      .onConflictDoUpdate({
        target: loginFailures.key,
        set: {
          failures: sql`CASE WHEN ${forgotten} THEN 1 ELSE ${loginFailures.failures} + 1 END`,
          lockedUntil: sql`CASE WHEN ${forgotten} THEN NULL ELSE ${loginFailures.lockedUntil} END`,
          expiresAt,
        },
      })
      .returning({ failures: loginFailures.failures });
    const over = (row?.failures ?? 0) - policy.lockAfterFailures;
    if (over < 0) return;
    const lockMs = Math.min(policy.maxLockMs, policy.lockMs * 2 ** Math.min(over, 30));
    const lockedUntil = new Date(now.getTime() + lockMs);
    await this.db
      .update(loginFailures)
      .set({ lockedUntil, expiresAt: new Date(lockedUntil.getTime() + policy.memoryMs) })
      .where(eq(loginFailures.key, key));
  }

  /** A correct password clears the key's failures. */
  async clear(key: string): Promise<void> {
    await this.db.delete(loginFailures).where(eq(loginFailures.key, key));
  }

  async deleteForgotten(now: Date): Promise<void> {
    await this.db.delete(loginFailures).where(lt(loginFailures.expiresAt, now));
  }
}

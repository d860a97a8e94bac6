import { eq, isNull, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Database } from '#api/db/client';
import type { RateLimitConfig } from '#api/config';
import { loginFailures } from '#api/db/schema';

export interface LockPolicy {
  /** The guess since the last right one that first locks the key. */
  lockAfterFailures: number;
  lockMs: number;
  maxLockMs: number;
  /** How long guesses are remembered after the last one (or after the lock ends). */
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
 * Guesses (passwords, codes, passcodes) per key, shared by every API process through the
 * database (docs/decisions/login-throttling.md). A guess is counted before it is evaluated, so
 * concurrent guesses cannot race past the lock; a right one clears the key.
 */
export class LoginFailureRepository {
  constructor(private readonly db: Database) {}

  /**
   * Reserves one guess for `key`, in one statement: the `lockAfterFailures`-th guess since the
   * last right one locks the key, and so does each guess after a lock ends, each time twice as
   * long as the last (capped). Guesses older than the memory start over. Answers the end of the
   * lock that refuses the guess, or undefined when the guess may be evaluated.
   */
  async reserveGuess(key: string, policy: LockPolicy, now: Date): Promise<Date | undefined> {
    const nowParam = sql`${now.toISOString()}::timestamptz`;
    const forgotten = sql`${loginFailures.expiresAt} <= ${nowParam}`;
    const guesses = sql`(CASE WHEN ${forgotten} THEN 1 ELSE ${loginFailures.failures} + 1 END)`;
    const milliseconds = (ms: SQL) => sql`${ms} * interval '1 millisecond'`;
    const lockMs = sql`least(${policy.maxLockMs}::float8, ${policy.lockMs}::float8 * power(2, least(${guesses} - ${policy.lockAfterFailures}::int, 30)))`;
    const lockedUntil = sql`CASE WHEN ${guesses} >= ${policy.lockAfterFailures}::int THEN ${nowParam} + ${milliseconds(lockMs)} END`;
    const firstLockedUntil =
      policy.lockAfterFailures <= 1 ? new Date(now.getTime() + policy.lockMs) : null;
    const rows = await this.db
      .insert(loginFailures)
      .values({
        key,
        failures: 1,
        lockedUntil: firstLockedUntil,
        expiresAt: new Date((firstLockedUntil ?? now).getTime() + policy.memoryMs),
      })
      .onConflictDoUpdate({
        target: loginFailures.key,
        set: {
          failures: guesses,
          lockedUntil,
          expiresAt: sql`coalesce(${lockedUntil}, ${nowParam}) + ${milliseconds(sql`${policy.memoryMs}::float8`)}`,
        },
        // A locked key is left as it is: the guess is refused without being counted.
        setWhere: or(isNull(loginFailures.lockedUntil), lte(loginFailures.lockedUntil, now)),
      })
      .returning({ key: loginFailures.key });
    if (rows.length > 0) return undefined;
    const [row] = await this.db
      .select({ lockedUntil: loginFailures.lockedUntil })
      .from(loginFailures)
      .where(eq(loginFailures.key, key));
    // The lock may have ended since: the guess is still refused, and may come again at once.
    return row?.lockedUntil != null && row.lockedUntil > now ? row.lockedUntil : now;
  }

  /** A right guess clears the key's count. */
  async clear(key: string): Promise<void> {
    await this.db.delete(loginFailures).where(eq(loginFailures.key, key));
  }

  async deleteForgotten(now: Date): Promise<void> {
    await this.db.delete(loginFailures).where(lt(loginFailures.expiresAt, now));
  }
}

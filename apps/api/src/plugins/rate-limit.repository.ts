import { lt, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { rateLimitCounters } from '../db/schema';

export interface WindowCount {
  hits: number;
  windowEndsAt: Date;
}

/** Fixed-window counters shared by every API process through the database. */
export class RateLimitRepository {
  constructor(private readonly db: Database) {}

  /** Counts one attempt for `key`, starting a new window when the last one has ended. */
  async hit(key: string, windowMs: number, now: Date): Promise<WindowCount> {
    const nowParam = sql`${now.toISOString()}::timestamptz`;
    const newEnd = new Date(now.getTime() + windowMs);
    const ended = sql`${rateLimitCounters.windowEndsAt} <= ${nowParam}`;
    const [row] = await this.db
      .insert(rateLimitCounters)
      .values({ key, hits: 1, windowEndsAt: newEnd })
      .onConflictDoUpdate({
        target: rateLimitCounters.key,
        set: {
          hits: sql`CASE WHEN ${ended} THEN 1 ELSE ${rateLimitCounters.hits} + 1 END`,
          windowEndsAt: sql`CASE WHEN ${ended} THEN ${newEnd.toISOString()}::timestamptz ELSE ${rateLimitCounters.windowEndsAt} END`,
        },
      })
      .returning({ hits: rateLimitCounters.hits, windowEndsAt: rateLimitCounters.windowEndsAt });
    if (row === undefined) throw new Error('The rate limit counter was not written.');
    return row;
  }

  async deleteEnded(now: Date): Promise<void> {
    await this.db.delete(rateLimitCounters).where(lt(rateLimitCounters.windowEndsAt, now));
  }
}

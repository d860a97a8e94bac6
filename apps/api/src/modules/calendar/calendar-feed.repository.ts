import { and, eq, isNull } from 'drizzle-orm';
import type { Database } from '#api/db/client';
import { calendarFeeds, users, type CalendarFeedRow } from '#api/db/schema';
import { insertedRow } from '#api/db/inserted-row';

/** The only code that reads or writes calendar feeds. */
export class CalendarFeedRepository {
  constructor(private readonly db: Database) {}

  async find(userId: string): Promise<CalendarFeedRow | undefined> {
    const [row] = await this.db
      .select()
      .from(calendarFeeds)
      .where(eq(calendarFeeds.userId, userId));
    return row;
  }

  /** The member whose active account owns the feed with this token hash. */
  async memberByTokenHash(tokenHash: string): Promise<string | undefined> {
    const [row] = await this.db
      .select({ userId: calendarFeeds.userId })
      .from(calendarFeeds)
      .innerJoin(users, eq(users.id, calendarFeeds.userId))
      .where(and(eq(calendarFeeds.tokenHash, tokenHash), isNull(users.deactivatedAt)));
    return row?.userId;
  }

  /** Makes the member's feed, or replaces its token: the old URL stops working at once. */
  async replace(userId: string, tokenHash: string, now: Date): Promise<CalendarFeedRow> {
    return insertedRow(
      await this.db
        .insert(calendarFeeds)
        .values({ userId, tokenHash, createdAt: now })
        .onConflictDoUpdate({ target: calendarFeeds.userId, set: { tokenHash, createdAt: now } })
        .returning(),
    );
  }

  async delete(userId: string): Promise<void> {
    await this.db.delete(calendarFeeds).where(eq(calendarFeeds.userId, userId));
  }
}

import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

export interface DateRangeFilter {
  startDate?: string | undefined;
  endDate?: string | undefined;
}

/**
 * The select list that counts a dated list's rows before `range`'s first day and after its last
 * (`day` is the calendar date each row is filed under); an open end counts none on its side.
 * One query for both, so the two counts read the same rows.
 */
export function outsideRangeCounts(day: AnyPgColumn | SQL, range: DateRangeFilter) {
  const countWhere = (condition: SQL) =>
    sql<number>`count(*) filter (where ${condition})`.mapWith(Number);
  return {
    before:
      range.startDate === undefined
        ? sql<number>`0`.mapWith(Number)
        : countWhere(sql`${day} < ${range.startDate}::date`),
    after:
      range.endDate === undefined
        ? sql<number>`0`.mapWith(Number)
        : countWhere(sql`${day} > ${range.endDate}::date`),
  };
}

import { signedInKeyPrefix } from '../lib/session-store';
import type { DateRange } from './date-range-filter';

/** The lists that remember the member's last dates. */
export type RangeList = 'photos' | 'records' | 'appointments';

// Kept for the tab like the tokens (docs/decisions/older-items-hint.md): the dates come back when
// the member returns to a list, and go with a new tab, a closed tab or signing out (the prefix).
const storageKey = (list: RangeList) => `${signedInKeyPrefix}list-range.${list}`;

const isDay = (value: unknown): value is string =>
  typeof value === 'string' && (value === '' || /^\d{4}-\d{2}-\d{2}$/.test(value));

/** The dates the member last chose on `list` in this session, or null. */
export function rememberedRange(list: RangeList): DateRange | null {
  try {
    const value: unknown = JSON.parse(sessionStorage.getItem(storageKey(list)) ?? 'null');
    if (typeof value !== 'object' || value === null) return null;
    const { startDate, endDate } = value as Record<string, unknown>;
    return isDay(startDate) && isDay(endDate) ? { startDate, endDate } : null;
  } catch {
    return null;
  }
}

/** Keeps `range` as `list`'s dates for the rest of the session. */
export function rememberRange(list: RangeList, range: DateRange): void {
  sessionStorage.setItem(storageKey(list), JSON.stringify(range));
}

import { useState } from 'react';
import { useLocation } from 'react-router';
import { monthAroundToday, type DateRange } from './date-range-filter';
import { rememberRange, rememberedRange, type RangeList } from './remembered-range';

/** What an add or edit screen tells its list after a save: the day the entry is filed under;
 *  and, from a link to one entry (a Dental AI result's photo), which card to open. */
interface SavedEntryState {
  savedDate: string;
  openId?: string;
}

/** Navigation options that take the saved entry's date (YYYY-MM-DD) to the list, and open its
 *  card when `openId` is given. */
export function savedEntryState(savedDate: string, openId?: string): { state: SavedEntryState } {
  return { state: { savedDate, ...(openId === undefined ? {} : { openId }) } };
}

/** The card a link asked the list to open, if any. */
export function openedEntryOf(state: unknown): string | null {
  if (typeof state !== 'object' || state === null || !('openId' in state)) return null;
  return typeof state.openId === 'string' ? state.openId : null;
}

/** The range widened, where needed, to take in `date`; open ends already do. */
export function rangeIncluding(range: DateRange, date: string): DateRange {
  return {
    startDate: range.startDate !== '' && date < range.startDate ? date : range.startDate,
    endDate: range.endDate !== '' && date > range.endDate ? date : range.endDate,
  };
}

function savedDateOf(state: unknown): string | undefined {
  if (typeof state !== 'object' || state === null || !('savedDate' in state)) return undefined;
  return typeof state.savedDate === 'string' && state.savedDate !== ''
    ? state.savedDate
    : undefined;
}

/** The photo and record lists' range: the dates the member last chose on this list in the session,
 *  else one month around today (docs/decisions/older-items-hint.md); widened to the date of the
 *  entry just saved so that it never vanishes from view (docs/decisions/patient-grade-defects.md). */
export function useListRange(list: RangeList): [DateRange, (range: DateRange) => void] {
  const { state } = useLocation() as { state: unknown };
  const [range, setRange] = useState<DateRange>(() => {
    const start = rememberedRange(list) ?? monthAroundToday();
    const savedDate = savedDateOf(state);
    return savedDate === undefined ? start : rangeIncluding(start, savedDate);
  });
  return [
    range,
    (next: DateRange) => {
      rememberRange(list, next);
      setRange(next);
    },
  ];
}

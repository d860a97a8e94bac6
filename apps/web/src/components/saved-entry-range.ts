import { useState } from 'react';
import { useLocation } from 'react-router';
import { monthAroundToday, type DateRange } from './date-range-filter';

/** What an add or edit screen tells its list after a save: the day the entry is filed under. */
interface SavedEntryState {
  savedDate: string;
}

/** Navigation options that take the saved entry's date (YYYY-MM-DD) to the list. */
export function savedEntryState(savedDate: string): { state: SavedEntryState } {
  return { state: { savedDate } };
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

/** The photo and record lists' range: one month around today, widened to the date of the entry
 *  just saved so that it never vanishes from view (docs/decisions/patient-grade-defects.md). */
export function useListRange() {
  const { state } = useLocation() as { state: unknown };
  return useState<DateRange>(() => {
    const savedDate = savedDateOf(state);
    return savedDate === undefined
      ? monthAroundToday()
      : rangeIncluding(monthAroundToday(), savedDate);
  });
}

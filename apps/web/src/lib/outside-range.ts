import { useQuery, type QueryKey } from '@tanstack/react-query';
import { outsideRangeCount } from '@dental/contracts';
import { apiRequest } from './api-client';

export interface OutsideRangeOptions {
  /** Under the list's own key, so that whatever refreshes the list refreshes its count too. */
  queryKey: QueryKey;
  /** The list's count path, e.g. `/api/oral-photo/outside-range/`. */
  path: string;
  /** The list's filters and dates, without paging. */
  filters: Readonly<Record<string, string>>;
  enabled: boolean;
}

/**
 * How many of the member's entries the list's dates leave out, before and after
 * (docs/decisions/older-items-hint.md). Not asked when both ends are open: nothing is left out.
 */
export function useOutsideRange({ queryKey, path, filters, enabled }: OutsideRangeOptions) {
  const query = new URLSearchParams(filters);
  const bounded = query.has('startDate') || query.has('endDate');
  return useQuery({
    queryKey,
    queryFn: () => apiRequest(`${path}?${query.toString()}`, outsideRangeCount),
    enabled: enabled && bounded,
  });
}

import { useInfiniteQuery } from '@tanstack/react-query';
import { activityPage, auditPaths } from '@dental/contracts';
import { apiRequest } from '#web/lib/api-client';

/** Rows per page of Account activity. */
export const activityPageSize = 20;

/** The member's own audit trail, newest first, a page at a time ('Load more'). */
export function useAccountActivity() {
  return useInfiniteQuery({
    queryKey: ['account', 'activity'],
    queryFn: ({ pageParam }) => {
      const query = new URLSearchParams({ limit: String(activityPageSize) });
      if (pageParam !== null) query.set('cursor', pageParam);
      return apiRequest(`${auditPaths.activity}?${query.toString()}`, activityPage);
    },
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.next,
  });
}

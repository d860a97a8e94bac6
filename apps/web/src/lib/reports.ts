import { queryOptions, useQuery } from '@tanstack/react-query';
import { reportList, reportPaths } from '@dental/contracts';
import { apiRequest } from './api-client';

/** GET /api/reports/: the member's reports and how many of each kind are left this year; the
 *  Reports screen and the Membership screen both show it (docs/product/reports.md). */
export const reportsQuery = queryOptions({
  queryKey: ['reports'],
  queryFn: () => apiRequest(reportPaths.root, reportList),
});

export function useReports() {
  return useQuery(reportsQuery);
}

/** '4 left this year'. */
export const leftThisYear = (count: number) => `${String(count)} left this year`;

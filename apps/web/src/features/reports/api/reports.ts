import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  report,
  reportPaths,
  reportStarted,
  type Report,
  type ReportRequest,
} from '@dental/contracts';
import { apiRequest, apiSend } from '#web/lib/api-client';
import { reportsQuery } from '#web/lib/reports';

/** How often a report being generated is read again. */
export const reportPollMs = 1000;

const unfinished = (row: Report | undefined) =>
  row?.status === 'queued' || row?.status === 'running';

/** GET /api/reports/{id}/, read again while the report is queued or running; the list's row is
 *  shown until then. When it ends, the list (and what is left this year) is read again. */
export function useReport(listed: Report) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: ['reports', listed.id],
    queryFn: async () => {
      const answer = await apiRequest(reportPaths.one(listed.id), report);
      if (!unfinished(answer))
        void queryClient.invalidateQueries({ queryKey: reportsQuery.queryKey, exact: true });
      return answer;
    },
    initialData: listed,
    enabled: unfinished(listed),
    refetchInterval: (query) => (unfinished(query.state.data) ? reportPollMs : false),
  });
}

/** POST /api/reports/: a use is reserved at once, so the list is read again either way. */
export function useGenerateReport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: ReportRequest) =>
      apiRequest(reportPaths.root, reportStarted, { method: 'POST', body: request }),
    onSettled: () =>
      queryClient.invalidateQueries({ queryKey: reportsQuery.queryKey, exact: true }),
  });
}

export function useDeleteReport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiSend(reportPaths.one(id), { method: 'DELETE' }),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: reportsQuery.queryKey, exact: true }),
  });
}

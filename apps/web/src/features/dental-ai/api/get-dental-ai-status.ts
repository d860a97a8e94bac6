import { queryOptions, useQuery } from '@tanstack/react-query';
import { dentalAiPaths, dentalAiStatus } from '@dental/contracts';
import { apiRequest } from '#web/lib/api-client';
import { dentalAiKeys } from '#web/lib/dental-ai-runs';

export function dentalAiStatusQuery() {
  return queryOptions({
    queryKey: dentalAiKeys.status,
    queryFn: () => apiRequest(dentalAiPaths.root, dentalAiStatus),
  });
}

/** GET /api/dental-ai/: the types this server can run and the plan's uses this year. */
export function useDentalAiStatus() {
  return useQuery(dentalAiStatusQuery());
}

import { queryOptions, useQuery } from '@tanstack/react-query';
import { dentalAiPaths, dentalAiStatus } from '@dental/contracts';
import { apiRequest } from '#web/lib/api-client';

export const dentalAiKeys = {
  all: ['dental-ai'] as const,
  status: ['dental-ai', 'status'] as const,
  results: ['dental-ai', 'results'] as const,
  result: (id: string) => ['dental-ai', 'result', id] as const,
};

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

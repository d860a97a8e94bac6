import { queryOptions, useQuery } from '@tanstack/react-query';
import { dentalAiPaths, dentalAiResult } from '@dental/contracts';
import { apiRequest } from '#web/lib/api-client';
import { dentalAiKeys } from '#web/lib/dental-ai-runs';

export function dentalAiResultQuery(id: string) {
  return queryOptions({
    queryKey: dentalAiKeys.result(id),
    queryFn: () => apiRequest(dentalAiPaths.result(id), dentalAiResult),
    // A stored result never changes, and its signed image link lives at least 4 minutes
    // (docs/decisions/signed-file-links.md): the answer of the run itself is shown as it is.
    staleTime: 3 * 60 * 1000,
  });
}

/** GET /api/dental-ai/{id}/: a stored result of the member's own. */
export function useDentalAiResult(id: string) {
  return useQuery(dentalAiResultQuery(id));
}

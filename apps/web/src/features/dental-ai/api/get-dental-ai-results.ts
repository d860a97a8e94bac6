import { useQuery } from '@tanstack/react-query';
import { dentalAiPaths, dentalAiResultList } from '@dental/contracts';
import { apiRequest } from '#web/lib/api-client';
import { dentalAiKeys } from './get-dental-ai-status';

/** GET /api/dental-ai/results/: the member's newest stored results (one page of 50). */
export function useDentalAiResults() {
  return useQuery({
    queryKey: dentalAiKeys.results,
    queryFn: () => apiRequest(dentalAiPaths.results, dentalAiResultList),
  });
}

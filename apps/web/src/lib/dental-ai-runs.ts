import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  dentalAiPaths,
  dentalAiResult,
  dentalAiResultList,
  type DentalAiPhotoRequest,
  type DentalAiRequest,
} from '@dental/contracts';
import { apiRequest } from './api-client';

// Dental AI's runs and stored results, here rather than in the feature: a stored photo's card
// runs Dental AI on it and lists its results (docs/product/dental-ai.md#on-a-stored-image).

export const dentalAiKeys = {
  all: ['dental-ai'] as const,
  status: ['dental-ai', 'status'] as const,
  results: ['dental-ai', 'results'] as const,
  result: (id: string) => ['dental-ai', 'result', id] as const,
};

/** GET /api/dental-ai/results/: the member's newest stored results (one page of 50), or those of
 *  one stored photo (`oralPhotoId`, its card lists them). */
export function useDentalAiResults(oralPhotoId?: string) {
  return useQuery({
    queryKey:
      oralPhotoId === undefined ? dentalAiKeys.results : [...dentalAiKeys.results, oralPhotoId],
    queryFn: () =>
      apiRequest(
        oralPhotoId === undefined
          ? dentalAiPaths.results
          : `${dentalAiPaths.results}?${new URLSearchParams({ oral_photo_id: oralPhotoId }).toString()}`,
        dentalAiResultList,
      ),
  });
}

/** POST /api/dental-ai/ (an upload) or /api/dental-ai/photo/ (a stored photo): runs a detection;
 *  the answer is cached as the stored result it is. */
export function useRunDentalAi() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: DentalAiRequest | DentalAiPhotoRequest) =>
      apiRequest(
        'oral_photo_id' in body ? dentalAiPaths.photo : dentalAiPaths.root,
        dentalAiResult,
        {
          method: 'POST',
          body,
        },
      ),
    onSuccess: async (result) => {
      queryClient.setQueryData(dentalAiKeys.result(result.id), result);
      // The run used one of the plan's detections and joined the past results.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: dentalAiKeys.status }),
        queryClient.invalidateQueries({ queryKey: dentalAiKeys.results }),
      ]);
    },
  });
}

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { dentalAiPaths, dentalAiResult, type DentalAiRequest } from '@dental/contracts';
import { apiRequest } from '#web/lib/api-client';
import { dentalAiKeys } from './get-dental-ai-status';

/** POST /api/dental-ai/: runs a detection; the answer is cached as the stored result it is. */
export function useRunDentalAi() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: DentalAiRequest) =>
      apiRequest(dentalAiPaths.root, dentalAiResult, { method: 'POST', body }),
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

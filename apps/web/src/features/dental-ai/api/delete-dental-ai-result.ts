import { useMutation, useQueryClient } from '@tanstack/react-query';
import { dentalAiPaths } from '@dental/contracts';
import { apiSend } from '#web/lib/api-client';
import { dentalAiKeys } from '#web/lib/dental-ai-runs';

/** DELETE /api/dental-ai/{id}/: the result and its image; the use stays spent. */
export function useDeleteDentalAiResult() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiSend(dentalAiPaths.result(id), { method: 'DELETE' }),
    onSuccess: async (_, id) => {
      queryClient.removeQueries({ queryKey: dentalAiKeys.result(id) });
      await queryClient.invalidateQueries({ queryKey: dentalAiKeys.results });
    },
  });
}

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { appointmentPaths, checkUpRecall, type CheckUpRecallRequest } from '@dental/contracts';
import { apiRequest } from '#web/lib/api-client';
import { appointmentKeys } from './get-appointments';

// Under the appointments' key: saving or deleting an appointment moves the last past one.
const recallKey = [...appointmentKeys.all, 'recall'] as const;

/** GET /api/appointment/recall/: the setting, the last past appointment and the due date. */
export function useCheckUpRecall(enabled: boolean) {
  return useQuery({
    queryKey: recallKey,
    queryFn: () => apiRequest(appointmentPaths.recall, checkUpRecall),
    enabled,
  });
}

/** PUT /api/appointment/recall/; the answer replaces the cached setting. */
export function useSaveCheckUpRecall() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: CheckUpRecallRequest) =>
      apiRequest(appointmentPaths.recall, checkUpRecall, { method: 'PUT', body: request }),
    onSuccess: (saved) => {
      queryClient.setQueryData(recallKey, saved);
    },
  });
}

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { appointmentPaths } from '@dental/contracts';
import { apiSend } from '#web/lib/api-client';
import { appointmentKeys } from './get-appointments';

/** DELETE /api/appointment/{id}/. */
export function useDeleteAppointment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiSend(appointmentPaths.one(id), { method: 'DELETE' }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: appointmentKeys.all });
    },
  });
}

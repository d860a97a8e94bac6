import { useMutation, useQueryClient } from '@tanstack/react-query';
import { medicalRecordPaths } from '@dental/contracts';
import { apiSend } from '#web/lib/api-client';
import { medicalRecordKeys } from './get-medical-records';

/** DELETE /api/medical-record/{id}/. */
export function useDeleteMedicalRecord() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiSend(medicalRecordPaths.one(id), { method: 'DELETE' }),
    onSuccess: async (_, id) => {
      queryClient.removeQueries({ queryKey: medicalRecordKeys.one(id) });
      await queryClient.invalidateQueries({ queryKey: medicalRecordKeys.all });
    },
  });
}

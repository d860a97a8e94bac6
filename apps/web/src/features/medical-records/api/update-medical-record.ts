import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  medicalRecord,
  medicalRecordPaths,
  type UpdateMedicalRecordRequest,
} from '@dental/contracts';
import { apiRequest } from '#web/lib/api-client';
import { medicalRecordKeys } from './get-medical-records';

/** PUT /api/medical-record/{id}/: title, date and note. */
export function useUpdateMedicalRecord(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateMedicalRecordRequest) =>
      apiRequest(medicalRecordPaths.one(id), medicalRecord, { method: 'PUT', body }),
    onSuccess: async (updated) => {
      queryClient.setQueryData(medicalRecordKeys.one(id), updated);
      await queryClient.invalidateQueries({ queryKey: medicalRecordKeys.all });
    },
  });
}

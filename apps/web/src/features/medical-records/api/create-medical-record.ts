import { useMutation, useQueryClient } from '@tanstack/react-query';
import { medicalRecord, medicalRecordPaths, type NewMedicalRecordRequest } from '@dental/contracts';
import { uploadRequest } from '#web/lib/upload-request';
import { medicalRecordKeys } from './get-medical-records';

/** POST /api/medical-record/ with its first files, reporting upload progress. */
export function useCreateMedicalRecord() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      body,
      onProgress,
    }: {
      body: NewMedicalRecordRequest;
      onProgress: (sent: number) => void;
    }) =>
      uploadRequest(medicalRecordPaths.list, medicalRecord, { method: 'POST', body, onProgress }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: medicalRecordKeys.all });
    },
  });
}

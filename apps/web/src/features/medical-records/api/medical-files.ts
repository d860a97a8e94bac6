import { useMutation, useQueryClient } from '@tanstack/react-query';
import { medicalFile, medicalRecordPaths, type NewMedicalFileRequest } from '@dental/contracts';
import { apiSend } from '#web/lib/api-client';
import { uploadRequest } from '#web/lib/upload-request';
import { medicalRecordKeys } from './get-medical-records';

/** POST /api/medical-record/{id}/medical-file/, reporting upload progress. */
export function useAddMedicalFile(recordId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      body,
      onProgress,
    }: {
      body: NewMedicalFileRequest;
      onProgress: (sent: number) => void;
    }) =>
      uploadRequest(medicalRecordPaths.files(recordId), medicalFile, {
        method: 'POST',
        body,
        onProgress,
      }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: medicalRecordKeys.all });
    },
  });
}

/** DELETE /api/medical-record/{id}/medical-file/{fileId}/. */
export function useRemoveMedicalFile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ recordId, fileId }: { recordId: string; fileId: string }) =>
      apiSend(medicalRecordPaths.file(recordId, fileId), { method: 'DELETE' }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: medicalRecordKeys.all });
    },
  });
}

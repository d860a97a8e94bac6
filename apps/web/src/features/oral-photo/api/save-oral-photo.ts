import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  oralPhoto,
  oralPhotoPaths,
  type NewOralPhotoRequest,
  type UpdateOralPhotoRequest,
} from '@dental/contracts';
import { uploadRequest } from '#web/lib/upload-request';
import { oralPhotoKeys } from './get-oral-photos';

export type SavePhotoInput =
  | { id?: undefined; body: NewOralPhotoRequest; onProgress: (sent: number) => void }
  | { id: string; body: UpdateOralPhotoRequest; onProgress: (sent: number) => void };

/** POST /api/oral-photo/ or PUT /api/oral-photo/{id}/, with upload progress. */
export function useSaveOralPhoto() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body, onProgress }: SavePhotoInput) =>
      id === undefined
        ? uploadRequest(oralPhotoPaths.list, oralPhoto, { method: 'POST', body, onProgress })
        : uploadRequest(oralPhotoPaths.one(id), oralPhoto, { method: 'PUT', body, onProgress }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: oralPhotoKeys.all });
    },
  });
}

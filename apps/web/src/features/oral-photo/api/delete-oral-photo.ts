import { useMutation, useQueryClient } from '@tanstack/react-query';
import { oralPhotoPaths } from '@dental/contracts';
import { apiSend } from '#web/lib/api-client';
import { oralPhotoKeys } from './get-oral-photos';

/** DELETE /api/oral-photo/{id}/. */
export function useDeleteOralPhoto() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiSend(oralPhotoPaths.one(id), { method: 'DELETE' }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: oralPhotoKeys.all });
    },
  });
}

import { useQuery } from '@tanstack/react-query';
import { captureSet, oralPhotoPaths } from '@dental/contracts';
import { apiRequest } from '#web/lib/api-client';
import { oralPhotoKeys } from './get-oral-photos';

/** GET /api/oral-photo/capture-sets/{setId}/: a guided capture's photos by view, with the set
 *  taken before it (docs/product/records.md#guided-capture). */
export function useCaptureSet(setId: string) {
  return useQuery({
    queryKey: [...oralPhotoKeys.all, 'capture-set', setId] as const,
    queryFn: () => apiRequest(oralPhotoPaths.captureSet(setId), captureSet),
  });
}

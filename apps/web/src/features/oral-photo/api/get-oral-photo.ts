import { queryOptions, useQuery } from '@tanstack/react-query';
import { oralPhoto, oralPhotoPaths } from '@dental/contracts';
import { apiRequest } from '#web/lib/api-client';
import { oralPhotoKeys } from './get-oral-photos';

export function oralPhotoQuery(id: string) {
  return queryOptions({
    queryKey: oralPhotoKeys.one(id),
    queryFn: () => apiRequest(oralPhotoPaths.one(id), oralPhoto),
  });
}

/** GET /api/oral-photo/{id}/. */
export function useOralPhoto(id: string) {
  return useQuery(oralPhotoQuery(id));
}

import { queryOptions, useQuery } from '@tanstack/react-query';
import { oralPhoto, oralPhotoPaths } from '@dental/contracts';
import { apiRequest } from './api-client';

/** Under the photo list's 'oral-photo' prefix, so that a save or delete refreshes it too. Here,
 *  not in the feature, since a Dental AI result names the photo it was run on. */
export function oralPhotoQuery(id: string) {
  return queryOptions({
    queryKey: ['oral-photo', 'one', id] as const,
    queryFn: () => apiRequest(oralPhotoPaths.one(id), oralPhoto),
  });
}

/** GET /api/oral-photo/{id}/. */
export function useOralPhoto(id: string) {
  return useQuery(oralPhotoQuery(id));
}

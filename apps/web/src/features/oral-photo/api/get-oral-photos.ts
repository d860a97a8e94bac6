import { useQuery } from '@tanstack/react-query';
import { oralPhotoList, oralPhotoPaths, type PhotoTypeFilter } from '@dental/contracts';
import { apiRequest } from '#web/lib/api-client';
import { useListPages } from '#web/lib/list-pages';
import { useOutsideRange } from '#web/lib/outside-range';
import { dateRangeParams, type DateRange } from '#web/components/date-range-filter';

export interface OralPhotoFilter extends DateRange {
  photoType: PhotoTypeFilter;
}

export const oralPhotoKeys = {
  all: ['oral-photo'] as const,
  list: (filter: OralPhotoFilter) => ['oral-photo', 'list', filter] as const,
  outsideRange: (filter: OralPhotoFilter) => ['oral-photo', 'outside-range', filter] as const,
};

/** GET /api/oral-photo/ with the type and date filters, a page at a time
 *  (docs/product/records.md#photo-calls, docs/decisions/web-list-paging.md). */
export function useOralPhotos(filter: OralPhotoFilter, enabled = true) {
  return useListPages({
    queryKey: oralPhotoKeys.list(filter),
    path: oralPhotoPaths.list,
    filters: { photoType: filter.photoType, ...dateRangeParams(filter) },
    schema: oralPhotoList,
    enabled,
  });
}

/** GET /api/oral-photo/?tooth=NN&sequence=ascending: one tooth's photos, oldest first, for its timeline
 *  (docs/product/records.md#tooth-tags); all at once, since one tooth has few. */
export function useToothPhotos(tooth: number, enabled = true) {
  const query = new URLSearchParams({ tooth: String(tooth), sequence: 'ascending' });
  return useQuery({
    queryKey: [...oralPhotoKeys.all, 'tooth', tooth] as const,
    queryFn: () => apiRequest(`${oralPhotoPaths.list}?${query.toString()}`, oralPhotoList),
    enabled,
  });
}

/** GET /api/oral-photo/ without filters: every photo (up to the list's bound), to count each
 *  tooth's images on the chart. */
export function useAllOralPhotos() {
  return useQuery({
    queryKey: [...oralPhotoKeys.all, 'every'] as const,
    queryFn: () => apiRequest(oralPhotoPaths.list, oralPhotoList),
  });
}

/** GET /api/oral-photo/outside-range/: how many photos of the type the dates leave out
 *  (docs/decisions/older-items-hint.md). */
export function useOralPhotosOutsideRange(filter: OralPhotoFilter, enabled = true) {
  return useOutsideRange({
    queryKey: oralPhotoKeys.outsideRange(filter),
    path: oralPhotoPaths.outsideRange,
    filters: { photoType: filter.photoType, ...dateRangeParams(filter) },
    enabled,
  });
}

import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  careTeamAccess,
  careTeamPaths,
  medicalRecordList,
  medicalRecordPaths,
  oralPhotoList,
  oralPhotoPaths,
  type CareTeamGrantRequest,
} from '@dental/contracts';
import { apiRequest, apiSend } from '#web/lib/api-client';

/** What the member shares with the practice (docs/product/care-team-sharing.md). */
export const careTeamAccessQuery = queryOptions({
  queryKey: ['care-team', 'access'],
  queryFn: () => apiRequest(careTeamPaths.access, careTeamAccess),
});

export function useCareTeamAccess() {
  return useQuery(careTeamAccessQuery);
}

/** The member's photos and records to choose from: the first page of each list (500). */
export function useShareableItems(enabled: boolean) {
  return useQuery({
    queryKey: ['care-team', 'items'],
    queryFn: async () => {
      const [photos, records] = await Promise.all([
        apiRequest(oralPhotoPaths.list, oralPhotoList),
        apiRequest(medicalRecordPaths.list, medicalRecordList),
      ]);
      return { photos, records };
    },
    enabled,
  });
}

export function useShareWithPractice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (grant: CareTeamGrantRequest) =>
      apiRequest(careTeamPaths.access, careTeamAccess, { method: 'POST', body: grant }),
    onSuccess: (access) => {
      queryClient.setQueryData(careTeamAccessQuery.queryKey, access);
    },
  });
}

export function useStopSharing() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiSend(careTeamPaths.access, { method: 'DELETE' }),
    onSettled: () => queryClient.invalidateQueries(careTeamAccessQuery),
  });
}

import { queryOptions, useQuery } from '@tanstack/react-query';
import { complaint, consultationPaths } from '@dental/contracts';
import { apiRequest } from '#web/lib/api-client';

/** GET /api/complaint/{id}/: the doctor summary of a past consultation. Its image links are
 *  signed for at least 4 minutes, so a refetch after 3 keeps them fresh. */
export function complaintQuery(id: string) {
  return queryOptions({
    queryKey: ['complaints', id],
    queryFn: () => apiRequest(consultationPaths.complaint(id), complaint),
    staleTime: 3 * 60 * 1000,
  });
}

export function useComplaint(id: string | null) {
  return useQuery({ ...complaintQuery(id ?? ''), enabled: id !== null });
}

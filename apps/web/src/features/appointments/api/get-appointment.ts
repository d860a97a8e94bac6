import { queryOptions, useQuery } from '@tanstack/react-query';
import { appointment, appointmentPaths } from '@dental/contracts';
import { apiRequest } from '#web/lib/api-client';
import { appointmentKeys } from './get-appointments';

export function appointmentQuery(id: string) {
  return queryOptions({
    queryKey: appointmentKeys.one(id),
    queryFn: () => apiRequest(appointmentPaths.one(id), appointment),
  });
}

/** GET /api/appointment/{id}/. */
export function useAppointment(id: string) {
  return useQuery(appointmentQuery(id));
}

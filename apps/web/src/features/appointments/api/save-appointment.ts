import { useMutation, useQueryClient } from '@tanstack/react-query';
import { appointment, appointmentPaths, type AppointmentRequest } from '@dental/contracts';
import { apiRequest } from '#web/lib/api-client';
import { appointmentKeys } from './get-appointments';

export interface SaveAppointmentInput {
  /** Absent for a new appointment. */
  id?: string;
  body: AppointmentRequest;
}

/** POST /api/appointment/ or PUT /api/appointment/{id}/. */
export function useSaveAppointment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: SaveAppointmentInput) =>
      id === undefined
        ? apiRequest(appointmentPaths.list, appointment, { method: 'POST', body })
        : apiRequest(appointmentPaths.one(id), appointment, { method: 'PUT', body }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: appointmentKeys.all });
    },
  });
}

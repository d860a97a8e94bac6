import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  consultationForm,
  consultationPaths,
  doctorsWithSlots,
  reservationDetail,
  type BookReservationRequest,
} from '@dental/contracts';
import { apiRequest } from '#web/lib/api-client';
import { reservationsKey } from './reservations';

/** GET /api/consultation/doctors/: doctors with their free slots over the next 14 days. */
export const doctorsQuery = queryOptions({
  queryKey: ['consultation', 'doctors'],
  queryFn: () => apiRequest(`${consultationPaths.doctors}?days=14`, doctorsWithSlots),
});

export function useDoctors() {
  return useQuery(doctorsQuery);
}

/** GET /api/consultation/form/: the questions a booking answers. */
export const consultationFormQuery = queryOptions({
  queryKey: ['consultation', 'form'],
  queryFn: () => apiRequest(consultationPaths.form, consultationForm),
});

export function useConsultationForm() {
  return useQuery(consultationFormQuery);
}

/** POST /api/reservation/: books the slot; the lists and free slots are fetched again. */
export function useBookReservation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: BookReservationRequest) =>
      apiRequest(consultationPaths.reservations, reservationDetail, {
        method: 'POST',
        body: request,
      }),
    onSettled: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: reservationsKey }),
        queryClient.invalidateQueries({ queryKey: doctorsQuery.queryKey }),
      ]);
    },
  });
}

import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  consultationPaths,
  reservationDetail,
  reservationList,
  type Reservation,
  type ReservationPeriod,
} from '@dental/contracts';
import { apiRequest, apiSend } from '#web/lib/api-client';

export const reservationsKey = ['reservations'] as const;

/** GET /api/reservation/?period=…: upcoming or past reservations
 *  (docs/product/consultation.md#reservation-calls). */
export function reservationListQuery(period: ReservationPeriod) {
  return queryOptions({
    queryKey: [...reservationsKey, 'list', period],
    queryFn: () =>
      apiRequest(`${consultationPaths.reservations}?period=${period}`, reservationList),
  });
}

/** The history list reloads whenever the period toggle changes
 *  (docs/product/consultation.md#reservation-history). */
export function useReservations(period: ReservationPeriod) {
  return useQuery({ ...reservationListQuery(period), refetchOnMount: 'always' });
}

/** GET /api/reservation/{id}/: one reservation with its answers in order, in one call. */
export function reservationDetailQuery(id: string) {
  return queryOptions({
    queryKey: [...reservationsKey, 'detail', id],
    queryFn: () => apiRequest(consultationPaths.reservation(id), reservationDetail),
  });
}

export function useReservation(id: string) {
  return useQuery(reservationDetailQuery(id));
}

/** DELETE /api/reservation/{id}/: the card leaves every cached list at once. */
export function useCancelReservation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiSend(consultationPaths.reservation(id), { method: 'DELETE' }),
    onSuccess: async (_answer, id) => {
      queryClient.setQueriesData<Reservation[]>(
        { queryKey: [...reservationsKey, 'list'] },
        (list) => list?.filter((reservation) => reservation.id !== id),
      );
      await queryClient.invalidateQueries({ queryKey: [...reservationsKey, 'list'] });
    },
  });
}

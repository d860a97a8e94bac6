import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { appointmentList, appointmentPaths, type AppointmentOrder } from '@dental/contracts';
import { apiRequest } from '#web/lib/api-client';
import { dateRangeParams, type DateRange } from '#web/components/date-range-filter';

export interface AppointmentFilter extends DateRange {
  order: AppointmentOrder;
}

export const appointmentKeys = {
  all: ['appointments'] as const,
  list: (filter: AppointmentFilter) => ['appointments', 'list', filter] as const,
  one: (id: string) => ['appointments', 'one', id] as const,
};

export function appointmentsQuery(filter: AppointmentFilter) {
  const query = new URLSearchParams({ order: filter.order, ...dateRangeParams(filter) });
  return queryOptions({
    queryKey: appointmentKeys.list(filter),
    queryFn: () => apiRequest(`${appointmentPaths.list}?${query.toString()}`, appointmentList),
  });
}

/** GET /api/appointment/ with the order and date filters
 *  (docs/product/appointments.md#appointment-calls). */
export function useAppointments(filter: AppointmentFilter, enabled = true) {
  return useQuery({ ...appointmentsQuery(filter), enabled, placeholderData: keepPreviousData });
}

import { appointmentList, appointmentPaths, type AppointmentOrder } from '@dental/contracts';
import { useListPages } from '#web/lib/list-pages';
import { useOutsideRange } from '#web/lib/outside-range';
import { dateRangeParams, type DateRange } from '#web/components/date-range-filter';

export interface AppointmentFilter extends DateRange {
  order: AppointmentOrder;
}

export const appointmentKeys = {
  all: ['appointments'] as const,
  list: (filter: AppointmentFilter) => ['appointments', 'list', filter] as const,
  outsideRange: (filter: AppointmentFilter) => ['appointments', 'outside-range', filter] as const,
  one: (id: string) => ['appointments', 'one', id] as const,
};

/** GET /api/appointment/ with the order and date filters, a page at a time
 *  (docs/product/appointments.md#appointment-calls, docs/decisions/web-list-paging.md). */
export function useAppointments(filter: AppointmentFilter, enabled = true) {
  return useListPages({
    queryKey: appointmentKeys.list(filter),
    path: appointmentPaths.list,
    filters: { order: filter.order, ...dateRangeParams(filter) },
    schema: appointmentList,
    enabled,
  });
}

/** GET /api/appointment/outside-range/: how many upcoming or previous appointments the dates
 *  leave out (docs/decisions/older-items-hint.md). */
export function useAppointmentsOutsideRange(filter: AppointmentFilter, enabled = true) {
  return useOutsideRange({
    queryKey: appointmentKeys.outsideRange(filter),
    path: appointmentPaths.outsideRange,
    filters: { order: filter.order, ...dateRangeParams(filter) },
    enabled,
  });
}

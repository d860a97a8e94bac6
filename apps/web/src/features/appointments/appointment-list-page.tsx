import { useState } from 'react';
import dayjs from 'dayjs';
import type { AppointmentOrder } from '@dental/contracts';
import { paths } from '#web/config/paths';
import { DatedListPage } from '#web/components/dated-list-page';
import { isDateRangeValid, type DateRange } from '#web/components/date-range-filter';
import { dateFormat } from '#web/lib/dates';
import { rememberRange, rememberedRange } from '#web/components/remembered-range';
import { useAppointments, useAppointmentsOutsideRange } from './api/get-appointments';
import { LoadMore } from '#web/lib/list-pages';
import { useReadOnlyRecord } from '#web/lib/viewed-record';
import { AppointmentCard } from './components/appointment-card';
import { CheckUpRecallSection } from './components/check-up-recall-section';

export const appointmentsTitle = 'Appointments Remind & History';

const orderChoices: { label: string; value: AppointmentOrder }[] = [
  { label: 'Upcoming', value: 'upcoming' },
  { label: 'Previous', value: 'previous' },
];

/** The default range of the appointment list: today to one month ahead
 *  (docs/product/general.md#date-filters). */
export function todayToNextMonth(today = dayjs()): DateRange {
  return { startDate: today.format(dateFormat), endDate: today.add(1, 'month').format(dateFormat) };
}

/** Previous's default: the month before today, since SPEC's future month holds no past
 *  appointment (docs/decisions/patient-grade-defects.md). */
export function lastMonthToToday(today = dayjs()): DateRange {
  return {
    startDate: today.subtract(1, 'month').format(dateFormat),
    endDate: today.format(dateFormat),
  };
}

/** Appointments (docs/product/appointments.md#appointment-list): order Upcoming or Previous, a date
 *  range, '+Add', and the cards. */
export default function AppointmentListPage() {
  const [order, setOrder] = useState<AppointmentOrder>('upcoming');
  // Each order shows its own default month until the patient picks dates, which the list keeps
  // for the session (docs/decisions/older-items-hint.md).
  const [chosenRange, setChosenRange] = useState<DateRange | null>(() =>
    rememberedRange('appointments'),
  );
  const range = chosenRange ?? (order === 'upcoming' ? todayToNextMonth() : lastMonthToToday());
  const appointments = useAppointments({ order, ...range }, isDateRangeValid(range));
  const outside = useAppointmentsOutsideRange({ order, ...range }, isDateRangeValid(range));
  const readOnly = useReadOnlyRecord();

  return (
    <>
      <DatedListPage
        title={appointmentsTitle}
        addPath={paths.appointmentAdd}
        choice={{ label: 'Order', data: orderChoices, value: order, onChange: setOrder }}
        range={range}
        onRangeChange={(next) => {
          rememberRange('appointments', next);
          setChosenRange(next);
        }}
        entries={appointments}
        emptyText="No appointments in this period."
        outside={{
          count: outside,
          words: {
            one: 'appointment',
            many: 'appointments',
            before: 'earlier',
            after: 'later',
          },
        }}
        renderEntry={(appointment) => <AppointmentCard appointment={appointment} />}
      />
      <LoadMore list={appointments} noun="appointments" />
      {!readOnly && <CheckUpRecallSection />}
    </>
  );
}

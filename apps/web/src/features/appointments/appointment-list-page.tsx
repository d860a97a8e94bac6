import { useState } from 'react';
import { Alert, Button, Group, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import dayjs from 'dayjs';
import { Link } from 'react-router';
import type { AppointmentOrder } from '@dental/contracts';
import { DateRangeFilter, type DateRange } from '../../components/date-range-filter';
import { PageSpinner } from '../../components/page-spinner';
import { errorMessage } from '../../lib/api-client';
import { dateFormat } from '../../lib/dates';
import { useDocumentTitle } from '../../lib/document-title';
import { useAppointments } from './api/get-appointments';
import { AppointmentCard } from './components/appointment-card';

export const appointmentsTitle = 'Appointments Remind & History';

const orderChoices: { label: string; value: AppointmentOrder }[] = [
  { label: 'Upcoming', value: 'upcoming' },
  { label: 'Previous', value: 'previous' },
];

/** The default range of the appointment list: today to one month ahead (SPEC §9). */
export function todayToNextMonth(today = dayjs()): DateRange {
  return { startDate: today.format(dateFormat), endDate: today.add(1, 'month').format(dateFormat) };
}

/** Appointments (SPEC §2): order Upcoming or Previous, a date range, '+Add', and the cards. */
export default function AppointmentListPage() {
  useDocumentTitle(appointmentsTitle);
  const [order, setOrder] = useState<AppointmentOrder>('upcoming');
  const [range, setRange] = useState<DateRange>(() => todayToNextMonth());
  const rangeValid =
    range.startDate === '' || range.endDate === '' || range.startDate <= range.endDate;
  const appointments = useAppointments({ order, ...range }, rangeValid);

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap">
        <Title order={1}>{appointmentsTitle}</Title>
        <Button component={Link} to="add">
          +Add
        </Button>
      </Group>
      <SegmentedControl
        aria-label="Order"
        data={orderChoices}
        value={order}
        onChange={(value) => {
          setOrder(value);
        }}
        fullWidth
      />
      <DateRangeFilter value={range} onChange={setRange} />
      {appointments.isPending && rangeValid && <PageSpinner />}
      {appointments.isError && (
        <Alert color="red" variant="outline">
          {errorMessage(appointments.error)}
        </Alert>
      )}
      {appointments.data?.length === 0 && <Text c="dimmed">No appointments in this period.</Text>}
      {appointments.data?.map((appointment) => (
        <AppointmentCard key={appointment.id} appointment={appointment} />
      ))}
    </Stack>
  );
}

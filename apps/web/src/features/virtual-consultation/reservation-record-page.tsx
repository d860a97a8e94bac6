import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { SegmentedControl, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import type { Reservation, ReservationPeriod } from '@dental/contracts';
import { LoadFailed } from '#web/components/load-failed';
import { PageSpinner } from '#web/components/page-spinner';
import { useDocumentTitle } from '#web/lib/document-title';
import { useReservations } from './api/reservations';
import { ReservationModal } from './components/reservation-modal';
import { formatReservationTime } from './reservation-time';
import classes from './reservation-record-page.module.css';

const periods: { value: ReservationPeriod; label: string; empty: string }[] = [
  { value: 'future', label: 'Current Reservation', empty: 'You have no upcoming reservations.' },
  { value: 'history', label: 'Consultation record', empty: 'You have no past consultations yet.' },
];

function ReservationCard({
  reservation,
  onOpen,
}: {
  reservation: Reservation;
  onOpen: () => void;
}) {
  return (
    <li>
      <UnstyledButton className={classes.card} onClick={onOpen}>
        <Text size="sm" c="dimmed">
          {reservation.timezone}
        </Text>
        <span className={classes.time}>
          {formatReservationTime(reservation.reservation_time, reservation.timezone)}
        </span>
        <span>{reservation.doctor_aggregation.doctor.name}</span>
      </UnstyledButton>
    </li>
  );
}

/** Reservation History (docs/product/consultation.md#reservation-history): upcoming or past cards;
 *  a card opens its details. `?summary={id}` (Home's new doctor's summary) opens on the past
 *  consultations with that one's details shown. */
export default function ReservationRecordPage() {
  useDocumentTitle('Reservation Record');
  const summaryOf = useSearchParams()[0].get('summary');
  const [period, setPeriod] = useState<ReservationPeriod>(
    summaryOf === null ? 'future' : 'history',
  );
  const [open, setOpen] = useState<Reservation | null>(null);
  // The linked reservation shows until the member closes it or changes the list.
  const [linkDone, setLinkDone] = useState(summaryOf === null);
  const reservations = useReservations(period);
  const linked = linkDone
    ? undefined
    : reservations.data?.find((reservation) => reservation.id === summaryOf);
  const current = periods.find((entry) => entry.value === period) ?? periods[0];

  return (
    <Stack gap="lg">
      <Title order={1}>Reservation History</Title>
      <SegmentedControl
        aria-label="Reservations to show"
        value={period}
        onChange={(value) => {
          setLinkDone(true);
          setPeriod(value === 'history' ? 'history' : 'future');
        }}
        data={periods.map(({ value, label }) => ({ value, label }))}
        classNames={{ label: classes.periodLabel }}
        fullWidth
      />
      {reservations.isPending || reservations.isFetching ? (
        <PageSpinner />
      ) : reservations.isError ? (
        <LoadFailed error={reservations.error} onRetry={reservations.refetch} />
      ) : reservations.data.length === 0 ? (
        <Text>{current?.empty}</Text>
      ) : (
        <ul className={classes.cards} aria-label={current?.label}>
          {reservations.data.map((reservation) => (
            <ReservationCard
              key={reservation.id}
              reservation={reservation}
              onOpen={() => {
                setOpen(reservation);
              }}
            />
          ))}
        </ul>
      )}
      <ReservationModal
        reservation={open ?? linked ?? null}
        onClose={() => {
          setLinkDone(true);
          setOpen(null);
        }}
      />
    </Stack>
  );
}

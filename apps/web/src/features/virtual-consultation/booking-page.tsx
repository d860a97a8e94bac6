import { useMemo, useState, type SyntheticEvent } from 'react';
import { Alert, Anchor, Button, Radio, Select, Stack, Text, Textarea, Title } from '@mantine/core';
import { Link } from 'react-router';
import {
  answerMaxLength,
  answerRequiredMessage,
  type DoctorWithSlots,
  type ReservationDetail,
} from '@dental/contracts';
import { paths } from '#web/app/paths';
import { PageSpinner } from '#web/components/page-spinner';
import { errorMessage } from '#web/lib/api-client';
import { useDocumentTitle } from '#web/lib/document-title';
import { useBookReservation, useConsultationForm, useDoctors } from './api/booking';
import { browserTimeZone, dayInZone, formatReservationTime } from './reservation-time';

/** The doctor's free slots grouped by day, labelled in the patient's zone. */
function slotOptions(doctor: DoctorWithSlots | undefined, zone: string) {
  const groups = new Map<string, { value: string; label: string }[]>();
  for (const slot of doctor?.slots ?? []) {
    const day = dayInZone(slot, zone);
    const items = groups.get(day) ?? [];
    items.push({ value: slot, label: formatReservationTime(slot, zone) });
    groups.set(day, items);
  }
  return [...groups].map(([group, items]) => ({ group, items }));
}

function Booked({ reservation, zone }: { reservation: ReservationDetail; zone: string }) {
  return (
    <Alert color="teal" title="Your consultation is booked">
      <Stack gap="xs">
        <Text>
          {reservation.doctor_aggregation.doctor.name},{' '}
          {formatReservationTime(reservation.reservation_time, zone)} ({zone}). A confirmation
          e-mail is on its way.
        </Text>
        <Anchor component={Link} to={paths.reservationRecord}>
          Go to Reservation Record
        </Anchor>
      </Stack>
    </Alert>
  );
}

/** Our own booking page (the hub's Reservation tile when no external page is configured):
 *  choose a doctor and a free time, answer the consultation form, confirm. */
export default function BookingPage() {
  useDocumentTitle('Book a consultation');
  const zone = useMemo(() => browserTimeZone(), []);
  const doctors = useDoctors();
  const form = useConsultationForm();
  const book = useBookReservation();
  const [doctorId, setDoctorId] = useState<string | null>(null);
  const [slot, setSlot] = useState<string | null>(null);
  const [answers, setAnswers] = useState<Record<string, string>>({});
  const [submitted, setSubmitted] = useState(false);

  const doctor = doctors.data?.find((entry) => entry.id === doctorId);
  const options = useMemo(() => slotOptions(doctor, zone), [doctor, zone]);

  if (doctors.isPending || form.isPending) return <PageSpinner />;
  if (doctors.isError || form.isError) {
    return <Alert color="red">{errorMessage(doctors.error ?? form.error)}</Alert>;
  }
  if (book.isSuccess) {
    return (
      <Stack gap="lg">
        <Title order={1}>Book a consultation</Title>
        <Booked reservation={book.data} zone={zone} />
      </Stack>
    );
  }

  const unanswered = (questionId: string) => (answers[questionId] ?? '').trim() === '';
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (doctorId === null || slot === null) return;
    if (form.data.questions.some((question) => unanswered(question.id))) return;
    book.mutate({
      doctor: doctorId,
      reservation_time: slot,
      timezone: zone,
      answers: form.data.questions.map((question) => ({
        question: question.id,
        answer: (answers[question.id] ?? '').trim(),
      })),
    });
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="lg">
        <Title order={1}>Book a consultation</Title>
        <Radio.Group
          label="Doctor"
          value={doctorId}
          onChange={(value) => {
            setDoctorId(value);
            setSlot(null);
          }}
          error={submitted && doctorId === null ? 'Choose a doctor.' : undefined}
          required
        >
          <Stack gap="xs" mt="xs">
            {doctors.data.map((entry) => (
              <Radio
                key={entry.id}
                value={entry.id}
                label={entry.name}
                description={`${String(entry.slots.length)} free times in the next 14 days`}
              />
            ))}
          </Stack>
        </Radio.Group>
        <Select
          label="Time"
          description={`Times are shown in your time zone, ${zone}.`}
          placeholder={doctor === undefined ? 'Choose a doctor first' : 'Choose a time'}
          data={options}
          value={slot}
          onChange={setSlot}
          disabled={doctor === undefined}
          nothingFoundMessage="No free times"
          searchable
          required
          error={submitted && slot === null ? 'Choose a consultation time.' : undefined}
          comboboxProps={{ withinPortal: true }}
        />
        {form.data.questions.map((question) => (
          <Textarea
            key={question.id}
            label={question.question_label}
            value={answers[question.id] ?? ''}
            onChange={(event) => {
              const { value } = event.currentTarget;
              setAnswers((current) => ({ ...current, [question.id]: value }));
            }}
            maxLength={answerMaxLength}
            autosize
            minRows={2}
            required
            error={submitted && unanswered(question.id) ? answerRequiredMessage : undefined}
          />
        ))}
        {book.isError && <Alert color="red">{errorMessage(book.error)}</Alert>}
        <Button type="submit" loading={book.isPending} style={{ alignSelf: 'flex-start' }}>
          Confirm Reservation
        </Button>
      </Stack>
    </form>
  );
}

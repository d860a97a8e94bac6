import { useMemo, useState, type SyntheticEvent } from 'react';
import {
  Alert,
  Anchor,
  Checkbox,
  Radio,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { Link } from 'react-router';
import {
  answerMaxLength,
  answerRequiredMessage,
  calendarPaths,
  consultationHowText,
  maxBookingDentalAi,
  type DentalAiResult,
  type DoctorWithSlots,
  type ReservationDetail,
} from '@dental/contracts';
import { paths } from '#web/config/paths';
import { AddToCalendarButton } from '#web/components/add-to-calendar-button';
import { markedAreas, resultName } from '#web/components/dental-ai-result-summary';
import { FormActions } from '#web/components/form-actions';
import { PageSpinner } from '#web/components/page-spinner';
import { errorMessage } from '#web/lib/api-client';
import { useDentalAiResults } from '#web/lib/dental-ai-runs';
import { useDocumentTitle } from '#web/lib/document-title';
import { usePublicConfig } from '#web/lib/public-config';
import { useLeave } from '#web/lib/use-leave';
import { useBookReservation, useConsultationForm, useDoctors } from './api/booking';
import classes from './booking-page.module.css';
import { browserTimeZone, dayInZone, formatReservationTime, timeInZone } from './reservation-time';

/** The doctor's free slots by day in the patient's zone, days in time order: a day is chosen
 *  first, then a time of that day from a short grid (docs/decisions/calendar-export.md). */
function slotsByDay(doctor: DoctorWithSlots | undefined, zone: string) {
  const days = new Map<string, string[]>();
  for (const slot of doctor?.slots ?? []) {
    const day = dayInZone(slot, zone);
    days.set(day, [...(days.get(day) ?? []), slot]);
  }
  return days;
}

function Booked({ reservation, zone }: { reservation: ReservationDetail; zone: string }) {
  const config = usePublicConfig();
  return (
    <Alert color="dental" variant="outline" title="Your consultation is booked">
      <Stack gap="sm">
        <Text>
          {reservation.doctor_aggregation.doctor.name},{' '}
          {formatReservationTime(reservation.reservation_time, zone)} ({zone}). A confirmation
          e-mail is on its way.
        </Text>
        {config.data && <Text>{consultationHowText(config.data.consultation_join_url)}</Text>}
        <AddToCalendarButton
          path={calendarPaths.reservation(reservation.id)}
          fileName="consultation.ics"
        />
        <Anchor component={Link} to={paths.reservationRecord}>
          Go to Reservation Record
        </Anchor>
      </Stack>
    </Alert>
  );
}

/** The member's Dental AI results, any of which the doctor may see with the booking
 *  (docs/decisions/consultation-dental-ai.md); nothing when there are none. */
function DentalAiChoice({
  results,
  chosen,
  onChange,
}: {
  results: readonly DentalAiResult[];
  chosen: string[];
  onChange: (ids: string[]) => void;
}) {
  if (results.length === 0) return null;
  return (
    <Checkbox.Group
      label="Show the doctor your Dental AI results (optional)"
      description={`The doctor sees the image with its marked areas. Up to ${String(maxBookingDentalAi)}.`}
      value={chosen}
      onChange={onChange}
    >
      <Stack gap="xs" mt="xs">
        {results.map((result) => (
          <Checkbox
            key={result.id}
            value={result.id}
            label={resultName(result)}
            description={markedAreas(result.detection_selection.length)}
            disabled={chosen.length >= maxBookingDentalAi && !chosen.includes(result.id)}
          />
        ))}
      </Stack>
    </Checkbox.Group>
  );
}

/** One choice of a grid: a whole card is the radio button. */
function Choice({ value, children }: { value: string; children: string }) {
  return (
    <Radio.Card value={value} className={classes.choice}>
      {children}
    </Radio.Card>
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
  const dentalAi = useDentalAiResults();
  const leave = useLeave(paths.virtualConsultation);
  const [doctorId, setDoctorId] = useState<string | null>(null);
  const [day, setDay] = useState<string | null>(null);
  const [slot, setSlot] = useState<string | null>(null);
  const [answers, setAnswers] = useState<Record<string, string>>({});
  const [shownResults, setShownResults] = useState<string[]>([]);
  const [submitted, setSubmitted] = useState(false);

  const doctor = doctors.data?.find((entry) => entry.id === doctorId);
  const days = useMemo(() => slotsByDay(doctor, zone), [doctor, zone]);
  const daySlots = day === null ? [] : (days.get(day) ?? []);

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
      dental_ai: shownResults,
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
            setDay(null);
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
        {doctor !== undefined && (
          <Radio.Group
            label="Day"
            description={days.size === 0 ? 'No free times in the next 14 days.' : undefined}
            value={day}
            onChange={(value) => {
              setDay(value);
              setSlot(null);
            }}
            required
            error={submitted && day === null ? 'Choose a day.' : undefined}
          >
            <SimpleGrid cols={{ base: 2, xs: 3, sm: 5 }} spacing="xs" mt="xs">
              {[...days.keys()].map((entry) => (
                <Choice key={entry} value={entry}>
                  {entry}
                </Choice>
              ))}
            </SimpleGrid>
          </Radio.Group>
        )}
        {day !== null && (
          <Radio.Group
            label="Time"
            description={`Times are shown in your time zone, ${zone}.`}
            value={slot}
            onChange={setSlot}
            required
            error={submitted && slot === null ? 'Choose a consultation time.' : undefined}
          >
            <SimpleGrid cols={{ base: 3, xs: 4, sm: 6 }} spacing="xs" mt="xs">
              {daySlots.map((entry) => (
                <Choice key={entry} value={entry}>
                  {timeInZone(entry, zone)}
                </Choice>
              ))}
            </SimpleGrid>
          </Radio.Group>
        )}
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
        <DentalAiChoice
          results={dentalAi.data ?? []}
          chosen={shownResults}
          onChange={setShownResults}
        />
        {book.isError && <Alert color="red">{errorMessage(book.error)}</Alert>}
        <FormActions submitLabel="Confirm Reservation" pending={book.isPending} onCancel={leave} />
      </Stack>
    </form>
  );
}

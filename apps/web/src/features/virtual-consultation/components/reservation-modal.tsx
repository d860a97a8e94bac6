import { useId, useState, type ReactNode } from 'react';
import { Alert, Button, Group, Image, Modal, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { calendarPaths, splitDoctorImages, type Reservation } from '@dental/contracts';
import { AddToCalendarButton } from '#web/components/add-to-calendar-button';
import { ResultSummary } from '#web/components/dental-ai-result-summary';
import { PageSpinner } from '#web/components/page-spinner';
import { errorMessage } from '#web/lib/api-client';
import { useComplaint } from '../api/complaint';
import { useCancelReservation, useReservation } from '../api/reservations';
import { formatReservationTime } from '../reservation-time';
import classes from './reservation-modal.module.css';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className={classes.field}>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function DoctorSummary({ complaintId }: { complaintId: string }) {
  const headingId = useId();
  const complaint = useComplaint(complaintId);
  if (complaint.isPending) return <PageSpinner />;
  if (complaint.isError) {
    return <Alert color="red">{errorMessage(complaint.error)}</Alert>;
  }
  const images = splitDoctorImages(complaint.data.doctor_images);
  return (
    <section aria-labelledby={headingId}>
      <Title order={3} size="h5" id={headingId} mb="xs">
        Doctor summary
      </Title>
      <dl className={classes.fields}>
        <Field label="Condition">{complaint.data.doctor_condition}</Field>
        <Field label="Suggestion">{complaint.data.doctor_summary}</Field>
        <Field label="Recommended return visit time">{complaint.data.doctor_return}</Field>
        <Field label="Doctor upload images">
          {images.length === 0 ? (
            'None'
          ) : (
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs" mt={4}>
              {images.map((link, index) => (
                <a key={link} href={link} target="_blank" rel="noopener noreferrer">
                  <Image src={link} alt={`Doctor upload image ${String(index + 1)}`} radius="sm" />
                </a>
              ))}
            </SimpleGrid>
          )}
        </Field>
      </dl>
    </section>
  );
}

function ReservationBody({ id, onClose }: { id: string; onClose: () => void }) {
  const infoHeadingId = useId();
  const dentalAiHeadingId = useId();
  const reservation = useReservation(id);
  const cancel = useCancelReservation();
  const [cancelling, setCancelling] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const confirmId = useId();

  if (reservation.isPending) return <PageSpinner />;
  if (reservation.isError) {
    return (
      <Stack>
        <Alert color="red">{errorMessage(reservation.error)}</Alert>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Close
          </Button>
        </Group>
      </Stack>
    );
  }
  const detail = reservation.data;
  return (
    <Stack gap="md">
      <dl className={classes.fields}>
        <Field label="Time zone">{detail.timezone}</Field>
        <Field label="Time">
          {formatReservationTime(detail.reservation_time, detail.timezone)}
        </Field>
        <Field label="Doctor">{detail.doctor_aggregation.doctor.name}</Field>
      </dl>
      <section aria-labelledby={infoHeadingId}>
        <Title order={3} size="h5" id={infoHeadingId} mb="xs">
          Consultation Info.
        </Title>
        {detail.answers.length === 0 ? (
          <Text c="dimmed">No answers were given.</Text>
        ) : (
          <dl className={classes.fields}>
            {detail.answers.map((answer) => (
              <Field key={answer.id} label={answer.form_and_questions.question.question_label}>
                {answer.answer}
              </Field>
            ))}
          </dl>
        )}
      </section>
      {detail.dental_ai.length > 0 && (
        <section aria-labelledby={dentalAiHeadingId}>
          <Title order={3} size="h5" id={dentalAiHeadingId} mb="xs">
            Dental AI results shown to the doctor
          </Title>
          <Stack gap="xs">
            {detail.dental_ai.map((result) => (
              <ResultSummary key={result.id} result={result} />
            ))}
          </Stack>
        </section>
      )}
      {!detail.upcoming && detail.complaint_id !== null && (
        <DoctorSummary complaintId={detail.complaint_id} />
      )}
      {detail.upcoming && (
        <AddToCalendarButton
          path={calendarPaths.reservation(detail.id)}
          fileName="consultation.ics"
        />
      )}
      {cancel.isError && <Alert color="red">{errorMessage(cancel.error)}</Alert>}
      {confirming ? (
        // One tap must not cancel: the patient confirms here first
        // (docs/decisions/patient-grade-defects.md).
        <Stack gap="xs" role="group" aria-labelledby={confirmId}>
          <Text fw={600} id={confirmId}>
            Do you really want to cancel this consultation? Its time is given up for others to book.
          </Text>
          <Group justify="flex-end">
            <Button
              variant="default"
              disabled={cancelling}
              onClick={() => {
                setConfirming(false);
              }}
            >
              Keep it
            </Button>
            <Button
              color="red"
              loading={cancelling}
              onClick={() => {
                setCancelling(true);
                cancel.mutate(detail.id, {
                  onSuccess: () => {
                    notifications.show({
                      color: 'dental',
                      message: `Your consultation on ${formatReservationTime(detail.reservation_time, detail.timezone)} is cancelled. A confirmation e-mail is on its way.`,
                    });
                    onClose();
                  },
                  onError: () => {
                    setCancelling(false);
                  },
                });
              }}
            >
              Yes, cancel it
            </Button>
          </Group>
        </Stack>
      ) : (
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Close
          </Button>
          {detail.upcoming && (
            <Button
              color="red"
              onClick={() => {
                setConfirming(true);
              }}
            >
              Cancel Reservation
            </Button>
          )}
        </Group>
      )}
    </Stack>
  );
}

/** 'Reservation Information' (docs/product/consultation.md#reservation-details): the answers arrive
 *  with the reservation in one call, so they show on first open; Cancel Reservation only while
 *  upcoming, the summary only when past. */
export function ReservationModal({
  reservation,
  onClose,
}: {
  reservation: Reservation | null;
  onClose: () => void;
}) {
  // Built from parts so that the header is a plain element: Mantine's default <header> would be
  // a second banner landmark beside the page's own (axe: landmark-no-duplicate-banner). The
  // footer's Close button is the one way out besides Escape, so there is no unnamed "×" button.
  return (
    <Modal.Root opened={reservation !== null} onClose={onClose} centered size="lg">
      <Modal.Overlay />
      <Modal.Content>
        <Modal.Header component="div">
          <Modal.Title>Reservation Information</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {reservation !== null && <ReservationBody id={reservation.id} onClose={onClose} />}
        </Modal.Body>
      </Modal.Content>
    </Modal.Root>
  );
}

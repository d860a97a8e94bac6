import type { ReactNode } from 'react';
import { Paper, Stack, Text, Title } from '@mantine/core';
import { DentalAiResults } from '#web/components/dental-ai-findings';
import { Detail, DetailsList } from '#web/components/details-list';
import type { ClinicConsultation } from '@dental/contracts';

/** A consultation's time as the practitioner keeps it: in the zone the booking was made in. */
export function consultationTime({ reservation_time, timezone }: ClinicConsultation): string {
  const when = new Intl.DateTimeFormat('en-GB', {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: timezone,
  }).format(new Date(reservation_time));
  return `${when} (${timezone})`;
}

/** One consultation: when, with whom, the patient's answers to the form, the Dental AI results
 *  they attached, then `children` (the summary or its link). */
export function ConsultationCard({
  consultation,
  showPractitioner,
  headingOrder,
  children,
}: {
  consultation: ClinicConsultation;
  showPractitioner: boolean;
  /** The patient's name is a heading one level under the list's. */
  headingOrder: 2 | 3;
  children?: ReactNode;
}) {
  return (
    <Paper
      component="article"
      withBorder
      p="md"
      aria-label={`Consultation with ${consultation.patient.username}`}
    >
      <Stack gap="xs">
        <Title order={headingOrder} size="h4">
          {consultation.patient.username}
        </Title>
        <Text size="sm">
          {consultationTime(consultation)}
          {showPractitioner && ` · with ${consultation.practitioner.name}`}
        </Text>
        {consultation.answers.length === 0 ? (
          <Text size="sm" c="dimmed">
            No answers to the consultation form.
          </Text>
        ) : (
          <DetailsList>
            {consultation.answers.map((answer) => (
              <Detail key={answer.label} label={answer.label}>
                {answer.answer}
              </Detail>
            ))}
          </DetailsList>
        )}
        {consultation.dental_ai.length > 0 && (
          <DentalAiResults
            results={consultation.dental_ai}
            heading="Dental AI results the patient attached"
            order={(headingOrder + 1) as 3 | 4}
          />
        )}
        {children}
      </Stack>
    </Paper>
  );
}

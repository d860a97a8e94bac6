import { Anchor, Stack, Title, VisuallyHidden } from '@mantine/core';
import { Link } from 'react-router';
import { Detail, DetailsList } from '#web/components/details-list';
import { useDocumentTitle } from '#web/lib/document-title';
import type { ClinicConsultation } from '@dental/contracts';
import { ConsultationList } from '../components/consultation-list';
import { clinicPaths } from '../paths';

function SummaryOf({ consultation }: { consultation: ClinicConsultation }) {
  const { summary } = consultation;
  const write = (
    <Anchor component={Link} to={clinicPaths.summary(consultation.id)} fw={600}>
      {summary === null ? 'Write the summary' : 'Edit the summary'}
      <VisuallyHidden component="span"> for {consultation.patient.username}</VisuallyHidden>
    </Anchor>
  );
  if (summary === null) return write;
  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        Doctor’s summary
      </Title>
      <DetailsList>
        <Detail label="Condition">{summary.doctor_condition}</Detail>
        <Detail label="Suggestion">{summary.doctor_summary}</Detail>
        <Detail label="Recommended return visit time">{summary.doctor_return}</Detail>
        <Detail label="Images">{String(summary.images.length)}</Detail>
      </DetailsList>
      {write}
    </Stack>
  );
}

/** Past consultations with the summaries written, and a link to write the missing ones. */
export default function HistoryPage() {
  useDocumentTitle('History');
  return (
    <Stack gap="lg">
      <Title order={1}>History</Title>
      <ConsultationList
        period="history"
        empty="No past consultations yet."
        headingOrder={2}
        extra={(consultation) => <SummaryOf consultation={consultation} />}
      />
    </Stack>
  );
}

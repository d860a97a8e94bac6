import { Stack, Title } from '@mantine/core';
import { useDocumentTitle } from '#web/lib/document-title';
import { ConsultationList } from '../components/consultation-list';

/** Today and upcoming: the consultations booked with this practitioner (an admin: everyone's),
 *  with the patient's name and answers to the consultation form. */
export default function TodayPage() {
  useDocumentTitle('Today and upcoming');
  return (
    <Stack gap="lg">
      <Title order={1}>Today and upcoming</Title>
      <Stack gap="sm" component="section" aria-labelledby="today-heading">
        <Title order={2} size="h3" id="today-heading">
          Today
        </Title>
        <ConsultationList period="today" empty="No consultations today." headingOrder={3} />
      </Stack>
      <Stack gap="sm" component="section" aria-labelledby="upcoming-heading">
        <Title order={2} size="h3" id="upcoming-heading">
          Upcoming
        </Title>
        <ConsultationList period="future" empty="No upcoming consultations." headingOrder={3} />
      </Stack>
    </Stack>
  );
}

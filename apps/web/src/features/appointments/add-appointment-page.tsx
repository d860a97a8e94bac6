import { Stack, Title } from '@mantine/core';
import dayjs from 'dayjs';
import { useNavigate } from 'react-router';
import { paths } from '#web/config/paths';
import { useDocumentTitle } from '#web/lib/document-title';
import { useSaveAppointment } from './api/save-appointment';
import { AppointmentForm } from './components/appointment-form';

/** New Appointment (docs/product/appointments.md#new-and-edit-appointment). */
export default function AddAppointmentPage() {
  useDocumentTitle('New Appointment');
  const navigate = useNavigate();
  const save = useSaveAppointment();
  const inAnHour = dayjs().add(1, 'hour').startOf('hour');
  return (
    <Stack gap="md">
      <Title order={1}>New Appointment</Title>
      <AppointmentForm
        initial={{
          date: inAnHour.format('YYYY-MM-DD'),
          time: inAnHour.format('HH:mm'),
          note: '',
          email_alert: false,
          sms_alert: false,
          push_alert: false,
          reminders: [],
        }}
        submitLabel="Save"
        onSave={async (body) => {
          await save.mutateAsync({ body });
          await navigate(paths.appointments);
        }}
      />
    </Stack>
  );
}

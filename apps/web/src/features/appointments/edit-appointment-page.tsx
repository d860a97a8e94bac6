import { Alert, Stack, Title } from '@mantine/core';
import { useNavigate, useParams } from 'react-router';
import { calendarPaths } from '@dental/contracts';
import { paths } from '#web/config/paths';
import { AddToCalendarButton } from '#web/components/add-to-calendar-button';
import { PageSpinner } from '#web/components/page-spinner';
import { errorMessage } from '#web/lib/api-client';
import { useDocumentTitle } from '#web/lib/document-title';
import { useAppointment } from './api/get-appointment';
import { useSaveAppointment } from './api/save-appointment';
import { toFormValues } from './appointment-format';
import { AppointmentForm } from './components/appointment-form';

/** Edit Appointment (docs/product/appointments.md#new-and-edit-appointment): the saved alerts come
 *  back as the 1 hour / 1 day / 1 week choices. */
export default function EditAppointmentPage() {
  useDocumentTitle('Edit Appointment');
  const { appointmentId = '' } = useParams();
  const navigate = useNavigate();
  const appointment = useAppointment(appointmentId);
  const save = useSaveAppointment();
  return (
    <Stack gap="md">
      <Title order={1}>Edit Appointment</Title>
      {appointment.isPending && <PageSpinner />}
      {appointment.isError && (
        <Alert color="red" variant="outline">
          {errorMessage(appointment.error)}
        </Alert>
      )}
      {appointment.data && (
        <AddToCalendarButton
          path={calendarPaths.appointment(appointment.data.id)}
          fileName="appointment.ics"
        />
      )}
      {appointment.data && (
        <AppointmentForm
          initial={toFormValues(appointment.data)}
          submitLabel="Save"
          onSave={async (body) => {
            await save.mutateAsync({ id: appointmentId, body });
            await navigate(paths.appointments);
          }}
        />
      )}
    </Stack>
  );
}

import { Button, Group, Paper, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { Appointment } from '@dental/contracts';
import { paths } from '#web/config/paths';
import { DeleteButton } from '#web/components/delete-button';
import { useDeleteAppointment } from '../api/delete-appointment';
import { cardDate, cardTime, reminderSummary } from '../appointment-format';
import { useReadOnlyRecord } from '#web/lib/viewed-record';

/** One appointment card (docs/product/appointments.md#appointment-list): date 'MM-DD-YYYY ddd',
 *  time 'hh:mm A', note, edit, delete. */
export function AppointmentCard({ appointment }: { appointment: Appointment }) {
  const deleteAppointment = useDeleteAppointment();
  const readOnly = useReadOnlyRecord();
  const date = cardDate(appointment.appointment_date);
  const time = cardTime(appointment.appointment_date);
  return (
    <Paper component="article" withBorder p="md" aria-label={`Appointment ${date} ${time}`}>
      <Stack gap="xs">
        <Group gap="sm" wrap="wrap">
          <Text fw={600}>{date}</Text>
          <Text>{time}</Text>
        </Group>
        {appointment.note !== '' && (
          <Text style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {appointment.note}
          </Text>
        )}
        <Text size="sm" c="dimmed">
          {reminderSummary(appointment)}
        </Text>
        <Group gap="xs">
          {!readOnly && (
            <Button
              component={Link}
              to={paths.appointmentEdit(appointment.id)}
              variant="default"
              size="xs"
            >
              Edit
            </Button>
          )}
          <DeleteButton
            deletion={deleteAppointment}
            id={appointment.id}
            title="Delete appointment"
            question={`Do you really want to delete the appointment on ${date} at ${time}? Its reminders are cancelled.`}
          />
        </Group>
      </Stack>
    </Paper>
  );
}

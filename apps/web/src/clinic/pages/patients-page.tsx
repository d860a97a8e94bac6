import { Anchor, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { LoadFailed } from '#web/components/load-failed';
import { PageSpinner } from '#web/components/page-spinner';
import { useDocumentTitle } from '#web/lib/document-title';
import { patientsQuery } from '../api/clinic-api';
import type { ClinicPatient } from '@dental/contracts';
import { clinicPaths } from '../paths';

const sharedNames = {
  all: 'Shares all photos, X-rays and records',
  chosen: 'Shares chosen items',
} as const;

function PatientRow({ patient }: { patient: ClinicPatient }) {
  return (
    <Paper withBorder p="sm">
      <Stack gap={4}>
        <Anchor component={Link} to={clinicPaths.patient(patient.id)} fw={600}>
          {patient.username}
        </Anchor>
        <Group gap="xs">
          {patient.booked_with_me && (
            <Text size="sm" fw={600}>
              Booked with you
            </Text>
          )}
          {patient.shared !== null && (
            <Text size="sm" fw={600}>
              {sharedNames[patient.shared]}
            </Text>
          )}
        </Group>
      </Stack>
    </Paper>
  );
}

/** The patients this staff member may see: those who booked with them or shared with the
 *  practice. */
export default function PatientsPage() {
  useDocumentTitle('Patients');
  const patients = useQuery(patientsQuery);
  return (
    <Stack gap="md">
      <Title order={1}>Patients</Title>
      <Text>
        Patients who booked a consultation with you or shared their records with the practice.
      </Text>
      {patients.isError ? (
        <LoadFailed error={patients.error} onRetry={patients.refetch} />
      ) : patients.data === undefined ? (
        <PageSpinner />
      ) : patients.data.results.length === 0 ? (
        <Text>No patients yet.</Text>
      ) : (
        <Stack gap="xs">
          {patients.data.results.map((patient) => (
            <PatientRow key={patient.id} patient={patient} />
          ))}
        </Stack>
      )}
    </Stack>
  );
}

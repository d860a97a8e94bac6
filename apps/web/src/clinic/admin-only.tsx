import { Anchor, Stack, Text, Title } from '@mantine/core';
import { Link, Outlet } from 'react-router';
import { useStaff } from './console-gate';
import { clinicPaths } from './paths';

/** The admin's screens (staff, practitioners, the form): a practitioner who follows a link here
 *  is told so, and no admin route is asked. */
export function AdminOnly() {
  const staff = useStaff();
  if (staff.role !== 'clinic_admin') {
    return (
      <Stack gap="md">
        <Title order={1}>For the practice’s administrators</Title>
        <Text>Only a clinic administrator can open this page.</Text>
        <Anchor component={Link} to={clinicPaths.today}>
          Back to today’s consultations
        </Anchor>
      </Stack>
    );
  }
  return <Outlet context={staff} />;
}

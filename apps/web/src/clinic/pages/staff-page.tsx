import { useState } from 'react';
import { Button, Group, NativeSelect, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { LoadFailed } from '#web/components/load-failed';
import { PageSpinner } from '#web/components/page-spinner';
import { useDocumentTitle } from '#web/lib/document-title';
import { ConfirmRemoval } from '../components/confirm-removal';
import { staffQuery, useDeactivateStaff, useInviteStaff } from '../api/clinic-api';
import type { StaffMemberEntry as StaffMember, StaffRole } from '@dental/contracts';
import { useStaff } from '../console-gate';
import { tell } from '../components/tell';
import { Failure } from '../components/failure';

const roleNames: Record<StaffRole, string> = {
  practitioner: 'Practitioner',
  clinic_admin: 'Clinic administrator',
};
const statusNames = { invited: 'Invited', active: 'Active', deactivated: 'Deactivated' } as const;

function InviteForm() {
  const invite = useInviteStaff();
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState<StaffRole>('practitioner');
  const submit = () => {
    invite.mutate(
      { email: email.trim(), name: name.trim(), role },
      {
        onSuccess: () => {
          tell(`An invitation is on its way to ${email.trim()}.`);
          setEmail('');
          setName('');
        },
      },
    );
  };
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="invite-heading">
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <Stack gap="sm">
          <Title order={2} size="h3" id="invite-heading">
            Invite a staff member
          </Title>
          <TextInput
            label="E-mail address"
            type="email"
            required
            value={email}
            onChange={(event) => {
              setEmail(event.currentTarget.value);
            }}
          />
          <TextInput
            label="Name"
            description="As patients will see it, for example Dr. Ada Lovelace"
            required
            value={name}
            onChange={(event) => {
              setName(event.currentTarget.value);
            }}
          />
          <NativeSelect
            label="Role"
            data={[
              { value: 'practitioner', label: roleNames.practitioner },
              { value: 'clinic_admin', label: roleNames.clinic_admin },
            ]}
            value={role}
            onChange={(event) => {
              setRole(event.currentTarget.value as StaffRole);
            }}
          />
          <Failure error={invite.error} />
          <Button type="submit" loading={invite.isPending} w="fit-content">
            Send invitation
          </Button>
        </Stack>
      </form>
    </Paper>
  );
}

function StaffRow({
  member,
  self,
  onDeactivate,
}: {
  member: StaffMember;
  self: boolean;
  onDeactivate: () => void;
}) {
  return (
    <Paper withBorder p="sm" component="li" aria-label={member.name}>
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Stack gap={2}>
          <Text fw={600}>{member.name}</Text>
          <Text size="sm">{member.email}</Text>
          <Group gap="xs">
            <Text size="sm">{roleNames[member.role]}</Text>
            <Text size="sm" fw={600}>
              {statusNames[member.status]}
            </Text>
          </Group>
        </Stack>
        {member.status !== 'deactivated' && !self && (
          <Button variant="outline" color="red" size="xs" onClick={onDeactivate}>
            Deactivate
          </Button>
        )}
      </Group>
    </Paper>
  );
}

/** Staff (admin): invite by e-mail, name and role; the list with each one's status; deactivate,
 *  which ends their sessions at once. */
export default function StaffPage() {
  useDocumentTitle('Staff');
  const me = useStaff();
  const staff = useQuery(staffQuery);
  const deactivate = useDeactivateStaff();
  const [leaving, setLeaving] = useState<StaffMember | null>(null);
  return (
    <Stack gap="lg">
      <Title order={1}>Staff</Title>
      <InviteForm />
      <Stack gap="sm" component="section" aria-labelledby="staff-heading">
        <Title order={2} size="h3" id="staff-heading">
          Staff members
        </Title>
        {staff.isError ? (
          <LoadFailed error={staff.error} onRetry={staff.refetch} />
        ) : staff.data === undefined ? (
          <PageSpinner />
        ) : (
          <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
            {staff.data.results.map((member) => (
              <StaffRow
                key={member.id}
                member={member}
                self={member.id === me.id}
                onDeactivate={() => {
                  setLeaving(member);
                }}
              />
            ))}
          </Stack>
        )}
      </Stack>
      <ConfirmRemoval
        item={leaving}
        title="Deactivate this staff member?"
        confirmLabel="Deactivate"
        onClose={() => {
          setLeaving(null);
        }}
        remove={(member) => deactivate.mutateAsync(member.id)}
      >
        {leaving?.name} will be signed out at once and can no longer sign in to the clinic console.
      </ConfirmRemoval>
    </Stack>
  );
}

import { useEffect } from 'react';
import { Alert, Button, Group, NativeSelect, Text } from '@mantine/core';
import { useLocation } from 'react-router';
import { paths } from '#web/config/paths';
import { useViewedRecord } from '#web/lib/viewed-record';
import { useReceivedDelegations, useSwitchRecord } from '../api/delegation';

const ownRecord = 'own';

/**
 * The header's choice between 'My record' and each record the member may view
 * (docs/product/proxy-access.md). Shown only to a member with such a record; when access ends
 * (revoked, or the owner left) it goes back to the member's own record by itself.
 */
export function RecordSwitcher() {
  const received = useReceivedDelegations();
  const viewed = useViewedRecord();
  const switchRecord = useSwitchRecord();
  const records = (received.data ?? []).filter((grant) => grant.status === 'active');
  const stillShared = viewed === null || records.some((grant) => grant.owner.id === viewed.id);

  useEffect(() => {
    if (received.isSuccess && !stillShared) switchRecord(null);
  }, [received.isSuccess, stillShared, switchRecord]);

  if (records.length === 0) return null;
  return (
    <NativeSelect
      size="xs"
      label="Record"
      value={viewed?.id ?? ownRecord}
      onChange={(event) => {
        const id = event.currentTarget.value;
        const grant = records.find((record) => record.owner.id === id);
        switchRecord(grant === undefined ? null : grant.owner);
      }}
      data={[
        { value: ownRecord, label: 'My record' },
        ...records.map((grant) => ({
          value: grant.owner.id,
          label: `${grant.owner.username}’s record`,
        })),
      ]}
    />
  );
}

/** The screens that show the viewed record: photos and X-rays, records, appointments, Dental AI. */
const healthScreens = [paths.oralPhotos, paths.medicalRecords, paths.appointments, paths.dentalAi];

/** The read-only notice above a health screen while another's record is shown. */
export function ViewedRecordBanner() {
  const viewed = useViewedRecord();
  const switchRecord = useSwitchRecord();
  const { pathname } = useLocation();
  if (viewed === null) return null;
  if (!healthScreens.some((screen) => pathname === screen || pathname.startsWith(`${screen}/`))) {
    return null;
  }
  return (
    <Alert variant="light" color="blue" mb="md" role="status">
      <Group justify="space-between" gap="xs">
        <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
          You are viewing {viewed.username}’s record. You can look but not change anything.
        </Text>
        <Button
          size="xs"
          variant="default"
          onClick={() => {
            switchRecord(null);
          }}
        >
          Back to my record
        </Button>
      </Group>
    </Alert>
  );
}

import { useEffect } from 'react';
import { Alert, Button, Group, NativeSelect, Text } from '@mantine/core';
import { useLocation } from 'react-router';
import { useViewedRecord } from '#web/lib/viewed-record';
import { useReceivedDelegations, useSwitchRecord } from '../api/delegation';
import { isHealthScreen, useOpenRecord } from '../open-record';

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
  const openRecord = useOpenRecord();
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
        if (grant === undefined) switchRecord(null);
        else openRecord(grant.owner);
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

/** The read-only notice above a health screen while another's record is shown. */
export function ViewedRecordBanner() {
  const viewed = useViewedRecord();
  const switchRecord = useSwitchRecord();
  const { pathname } = useLocation();
  if (viewed === null || !isHealthScreen(pathname)) return null;
  return (
    <Alert variant="light" color="blue" mb="md" role="status">
      <Group justify="space-between" gap="xs">
        <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
          You are viewing {viewed.username}’s record — read only
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

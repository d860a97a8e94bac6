import { useState } from 'react';
import {
  Accordion,
  Alert,
  Button,
  Group,
  SegmentedControl,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { Link } from 'react-router';
import type { RecordSequence } from '@dental/contracts';
import {
  DateRangeFilter,
  monthAroundToday,
  type DateRange,
} from '../../components/date-range-filter';
import { PageSpinner } from '../../components/page-spinner';
import { errorMessage } from '../../lib/api-client';
import { useDocumentTitle } from '../../lib/document-title';
import { useMedicalRecords } from './api/get-medical-records';
import { RecordCard } from './components/record-card';

export const medicalRecordsTitle = 'Medical or Ins. Records Storage';

const sequenceChoices: { label: string; value: RecordSequence }[] = [
  { label: 'Descending', value: 'descending' },
  { label: 'Ascending', value: 'ascending' },
];

/** Medical or Ins. Records Storage (SPEC §2): order and date filters, expandable cards. */
export default function MedicalRecordListPage() {
  useDocumentTitle(medicalRecordsTitle);
  const [sequence, setSequence] = useState<RecordSequence>('descending');
  const [range, setRange] = useState<DateRange>(() => monthAroundToday());
  const [openedId, setOpenedId] = useState<string | null>(null);
  const rangeValid =
    range.startDate === '' || range.endDate === '' || range.startDate <= range.endDate;
  const records = useMedicalRecords({ sequence, ...range }, rangeValid);

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap">
        <Title order={1}>{medicalRecordsTitle}</Title>
        <Button component={Link} to="add">
          +Add
        </Button>
      </Group>
      <SegmentedControl
        aria-label="Order"
        data={sequenceChoices}
        value={sequence}
        onChange={(value) => {
          setSequence(value);
        }}
        fullWidth
      />
      <DateRangeFilter value={range} onChange={setRange} />
      {records.isPending && rangeValid && <PageSpinner />}
      {records.isError && (
        <Alert color="red" variant="outline">
          {errorMessage(records.error)}
        </Alert>
      )}
      {records.data?.length === 0 && <Text c="dimmed">No records in this period.</Text>}
      {records.data !== undefined && records.data.length > 0 && (
        <Accordion variant="separated" value={openedId} onChange={setOpenedId}>
          {records.data.map((record) => (
            <RecordCard key={record.id} record={record} />
          ))}
        </Accordion>
      )}
    </Stack>
  );
}

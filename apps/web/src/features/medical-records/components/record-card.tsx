import { Accordion, Anchor, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import type { MedicalRecord } from '@dental/contracts';
import { paths } from '#web/app/paths';
import { FileList } from './file-list';

/** One expandable record card (docs/product/records.md#medical-and-insurance-records): closed,
 *  title, date and the start of the note; open, the note, files and the edit link. */
export function RecordCard({ record, opened }: { record: MedicalRecord; opened: boolean }) {
  return (
    <Accordion.Item value={record.id}>
      <Accordion.Control>
        <Group gap="xs" wrap="wrap">
          <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
            {record.title}
          </Text>
          <Text c="dimmed">{record.record_date}</Text>
        </Group>
        {/* Open, the card shows the whole note below. */}
        {!opened && record.note !== '' && (
          <Text size="sm" c="dimmed" lineClamp={1}>
            {record.note}
          </Text>
        )}
      </Accordion.Control>
      <Accordion.Panel>
        <Stack gap="sm">
          <Text>
            <Text span fw={600}>
              Date:
            </Text>{' '}
            {record.record_date}
          </Text>
          {record.note !== '' && <Text style={{ whiteSpace: 'pre-wrap' }}>{record.note}</Text>}
          <Title order={2} size="h5">
            Files
          </Title>
          <FileList recordId={record.id} files={record.medical_files} />
          <Anchor component={Link} to={paths.medicalRecord(record.id)}>
            Edit
          </Anchor>
        </Stack>
      </Accordion.Panel>
    </Accordion.Item>
  );
}

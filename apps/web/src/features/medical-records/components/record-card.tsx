import { Accordion, Anchor, Checkbox, Group, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { MedicalRecord } from '@dental/contracts';
import { paths } from '#web/config/paths';
import { RecordBody } from './record-body';
import classes from './record-card.module.css';
import { useReadOnlyRecord } from '#web/lib/viewed-record';

export interface RecordCardProps {
  record: MedicalRecord;
  opened: boolean;
  /** While the member chooses what to share: whether this one is chosen (docs/product/sharing.md). */
  share?: { chosen: boolean; onChange: (chosen: boolean) => void } | undefined;
}

/** One expandable record card (docs/product/records.md#medical-and-insurance-records): closed,
 *  title, date and the start of the note; open, the note, files and the edit link. */
export function RecordCard({ record, opened, share }: RecordCardProps) {
  const readOnly = useReadOnlyRecord();
  return (
    <Accordion.Item value={record.id}>
      <div className={classes.head}>
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
        {share !== undefined && (
          <Checkbox
            label="Share"
            aria-label={`Share ${record.title} of ${record.record_date}`}
            checked={share.chosen}
            onChange={(event) => {
              share.onChange(event.currentTarget.checked);
            }}
          />
        )}
      </div>
      <Accordion.Panel>
        <Stack gap="sm">
          <RecordBody record={record} filesHeadingSize="h5" />
          {!readOnly && (
            <Anchor component={Link} to={paths.medicalRecord(record.id)}>
              Edit
            </Anchor>
          )}
        </Stack>
      </Accordion.Panel>
    </Accordion.Item>
  );
}

import { Text, Title, type TitleSize } from '@mantine/core';
import type { MedicalRecord } from '@dental/contracts';
import { FileList } from './file-list';

/** A record's date, note and attached files, as the open card and the read-only detail show
 *  them. */
export function RecordBody({
  record,
  filesHeadingSize,
}: {
  record: MedicalRecord;
  filesHeadingSize: TitleSize;
}) {
  return (
    <>
      <Text>
        <Text span fw={600}>
          Date:
        </Text>{' '}
        {record.record_date}
      </Text>
      {record.note !== '' && <Text style={{ whiteSpace: 'pre-wrap' }}>{record.note}</Text>}
      <Title order={2} size={filesHeadingSize}>
        Files
      </Title>
      <FileList recordId={record.id} files={record.medical_files} />
    </>
  );
}

import { useState } from 'react';
import type { RecordSequence } from '@dental/contracts';
import { paths } from '#web/config/paths';
import { DatedListPage } from '#web/components/dated-list-page';
import { isDateRangeValid } from '#web/components/date-range-filter';
import { useListRange } from '#web/components/saved-entry-range';
import { ShareButton, ShareSelectionBar, useShareSelection } from '#web/components/share-selection';
import { useMedicalRecords, useMedicalRecordsOutsideRange } from './api/get-medical-records';
import { LoadMore } from '#web/lib/list-pages';
import { RecordCard } from './components/record-card';

export const medicalRecordsTitle = 'Medical or Ins. Records Storage';

const sequenceChoices: { label: string; value: RecordSequence }[] = [
  { label: 'Descending', value: 'descending' },
  { label: 'Ascending', value: 'ascending' },
];

/** Medical or Ins. Records Storage (docs/product/records.md#medical-and-insurance-records): order
 *  and date filters, expandable cards; records chosen to share (docs/product/sharing.md). */
export default function MedicalRecordListPage() {
  const [sequence, setSequence] = useState<RecordSequence>('descending');
  const [range, setRange] = useListRange('records');
  const records = useMedicalRecords({ sequence, ...range }, isDateRangeValid(range));
  const outside = useMedicalRecordsOutsideRange(range, isDateRangeValid(range));
  const sharing = useShareSelection();

  return (
    <>
      <DatedListPage
        title={medicalRecordsTitle}
        addPath={paths.medicalRecordAdd}
        links={<ShareButton selection={sharing} />}
        choice={{ label: 'Order', data: sequenceChoices, value: sequence, onChange: setSequence }}
        range={range}
        onRangeChange={setRange}
        entries={records}
        emptyText="No records in this period."
        outside={{
          count: outside,
          words: { one: 'record', many: 'records', before: 'older', after: 'newer' },
        }}
        expandable
        renderEntry={(record, opened) => (
          <RecordCard
            record={record}
            opened={opened}
            share={
              sharing.choosing
                ? {
                    chosen: sharing.isChosen(record.id),
                    onChange: (chosen) => {
                      sharing.choose(record.id, chosen);
                    },
                  }
                : undefined
            }
          />
        )}
      />
      <LoadMore list={records} noun="records" roomForBottomBar={sharing.choosing} />
      <ShareSelectionBar
        selection={sharing}
        kind="records"
        noun={(count) =>
          count === 1 ? '1 record with its files' : `${count} records with their files`
        }
      />
    </>
  );
}

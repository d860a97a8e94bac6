import { medicalRecordList, medicalRecordPaths, type RecordSequence } from '@dental/contracts';
import { useListPages } from '#web/lib/list-pages';
import { useOutsideRange } from '#web/lib/outside-range';
import { dateRangeParams, type DateRange } from '#web/components/date-range-filter';

export interface MedicalRecordFilter extends DateRange {
  sequence: RecordSequence;
}

export const medicalRecordKeys = {
  all: ['medical-records'] as const,
  list: (filter: MedicalRecordFilter) => ['medical-records', 'list', filter] as const,
  outsideRange: (range: DateRange) => ['medical-records', 'outside-range', range] as const,
  one: (id: string) => ['medical-records', 'one', id] as const,
};

/** GET /api/medical-record/ with the order and date filters, a page at a time
 *  (docs/product/records.md#record-calls, docs/decisions/web-list-paging.md). */
export function useMedicalRecords(filter: MedicalRecordFilter, enabled = true) {
  return useListPages({
    queryKey: medicalRecordKeys.list(filter),
    path: medicalRecordPaths.list,
    filters: { sequence: filter.sequence, ...dateRangeParams(filter) },
    schema: medicalRecordList,
    enabled,
  });
}

/** GET /api/medical-record/outside-range/: how many records the dates leave out
 *  (docs/decisions/older-items-hint.md). */
export function useMedicalRecordsOutsideRange(range: DateRange, enabled = true) {
  return useOutsideRange({
    queryKey: medicalRecordKeys.outsideRange(range),
    path: medicalRecordPaths.outsideRange,
    filters: dateRangeParams(range),
    enabled,
  });
}

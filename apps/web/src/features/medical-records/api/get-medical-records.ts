import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { medicalRecordList, medicalRecordPaths, type RecordSequence } from '@dental/contracts';
import { apiRequest } from '#web/lib/api-client';
import { dateRangeParams, type DateRange } from '#web/components/date-range-filter';

export interface MedicalRecordFilter extends DateRange {
  sequence: RecordSequence;
}

export const medicalRecordKeys = {
  all: ['medical-records'] as const,
  list: (filter: MedicalRecordFilter) => ['medical-records', 'list', filter] as const,
  one: (id: string) => ['medical-records', 'one', id] as const,
};

export function medicalRecordsQuery(filter: MedicalRecordFilter) {
  const query = new URLSearchParams({ sequence: filter.sequence, ...dateRangeParams(filter) });
  return queryOptions({
    queryKey: medicalRecordKeys.list(filter),
    queryFn: () => apiRequest(`${medicalRecordPaths.list}?${query.toString()}`, medicalRecordList),
  });
}

/** GET /api/medical-record/ with the order and date filters
 *  (docs/product/records.md#record-calls). */
export function useMedicalRecords(filter: MedicalRecordFilter, enabled = true) {
  return useQuery({ ...medicalRecordsQuery(filter), enabled, placeholderData: keepPreviousData });
}

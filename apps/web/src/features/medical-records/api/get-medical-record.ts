import { queryOptions, useQuery } from '@tanstack/react-query';
import { medicalRecord, medicalRecordPaths } from '@dental/contracts';
import { apiRequest } from '#web/lib/api-client';
import { medicalRecordKeys } from './get-medical-records';

export function medicalRecordQuery(id: string) {
  return queryOptions({
    queryKey: medicalRecordKeys.one(id),
    queryFn: () => apiRequest(medicalRecordPaths.one(id), medicalRecord),
  });
}

/** GET /api/medical-record/{id}/. */
export function useMedicalRecord(id: string) {
  return useQuery(medicalRecordQuery(id));
}

import { queryOptions, useQuery } from '@tanstack/react-query';
import { oralSupplierPath, supplierList } from '@dental/contracts';
import { apiRequest } from '#web/lib/api-client';

/** GET /api/oral-supplier/ with the bearer token
 *  (docs/product/knowledge.md#knowledge-and-supplier-calls). */
export const supplierListQuery = queryOptions({
  queryKey: ['oral-supplier'],
  queryFn: () => apiRequest(oralSupplierPath, supplierList),
});

export function useSupplierList() {
  return useQuery(supplierListQuery);
}

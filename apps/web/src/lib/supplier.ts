import { queryOptions, useQuery } from '@tanstack/react-query';
import { oralSupplierItemPath, supplier } from '@dental/contracts';
import { apiRequest } from '#web/lib/api-client';

/** GET /api/oral-supplier/{supplierId}/ with the bearer token. */
export function supplierQuery(supplierId: string) {
  return queryOptions({
    queryKey: ['oral-supplier', 'page', supplierId],
    queryFn: () => apiRequest(oralSupplierItemPath(supplierId), supplier),
  });
}

/** Keyed by the id, so opening another supplier loads it afresh
 *  (docs/product/knowledge.md#supplier-page). */
export function useSupplier(supplierId: string) {
  return useQuery(supplierQuery(supplierId));
}

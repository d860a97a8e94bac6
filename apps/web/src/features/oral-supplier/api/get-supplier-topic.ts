import { queryOptions, useQuery } from '@tanstack/react-query';
import { oralSupplierTopicPath, supplierTopic } from '@dental/contracts';
import { apiRequest } from '#web/lib/api-client';

/** The heading and picture above the supplier cards (docs/decisions/oral-supplier-topic.md). */
export const supplierTopicQuery = queryOptions({
  queryKey: ['oral-supplier', 'topic'],
  queryFn: () => apiRequest(oralSupplierTopicPath, supplierTopic),
});

export function useSupplierTopic() {
  return useQuery(supplierTopicQuery);
}

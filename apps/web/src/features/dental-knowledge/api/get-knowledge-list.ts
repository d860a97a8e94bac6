import { queryOptions, useQuery } from '@tanstack/react-query';
import { dentalKnowledgePath, knowledgeList } from '@dental/contracts';
import { apiRequest } from '#web/lib/api-client';

/** GET /api/dental-knowledge/: public, so no credential goes with it
 *  (docs/product/knowledge.md#knowledge-and-supplier-calls). */
export const knowledgeListQuery = queryOptions({
  queryKey: ['dental-knowledge'],
  queryFn: () => apiRequest(dentalKnowledgePath, knowledgeList, { auth: false }),
});

export function useKnowledgeList() {
  return useQuery(knowledgeListQuery);
}

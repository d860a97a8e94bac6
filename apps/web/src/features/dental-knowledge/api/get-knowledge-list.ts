import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
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

/** GET /api/dental-knowledge/?q=: the articles holding every word, each with a passage
 *  (docs/product/knowledge.md#search). The previous answer stays while the next one loads, so
 *  the results do not blink as the reader types. */
export function useKnowledgeSearch(search: string) {
  return useQuery({
    queryKey: ['dental-knowledge', 'search', search],
    queryFn: () =>
      apiRequest(`${dentalKnowledgePath}?q=${encodeURIComponent(search)}`, knowledgeList, {
        auth: false,
      }),
    enabled: search !== '',
    placeholderData: keepPreviousData,
  });
}

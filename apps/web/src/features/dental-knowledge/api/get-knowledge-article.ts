import { queryOptions, useQuery } from '@tanstack/react-query';
import { dentalKnowledgeArticlePath, knowledgeArticle } from '@dental/contracts';
import { apiRequest } from '#web/lib/api-client';

/** GET /api/dental-knowledge/{knowledgeId}/: public, no credential
 *  (docs/product/knowledge.md#knowledge-and-supplier-calls). */
export function knowledgeArticleQuery(knowledgeId: string) {
  return queryOptions({
    queryKey: ['dental-knowledge', knowledgeId],
    queryFn: () =>
      apiRequest(dentalKnowledgeArticlePath(knowledgeId), knowledgeArticle, { auth: false }),
  });
}

/** Keyed by the id, so opening another article loads it afresh
 *  (docs/product/knowledge.md#article). */
export function useKnowledgeArticle(knowledgeId: string) {
  return useQuery(knowledgeArticleQuery(knowledgeId));
}

import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  dentalKnowledgePath,
  knowledgeArticle,
  knowledgeList,
  knowledgeListQuery,
  knowledgeParams,
  problem,
} from '@dental/contracts';
import { sendMarkdown } from '../content/markdown-reply';
import type { DentalKnowledgeService } from './dental-knowledge.service';

export interface DentalKnowledgeRoutesOptions {
  dentalKnowledge: DentalKnowledgeService;
}

const tags = ['dental-knowledge'];

/** docs/product/knowledge.md#knowledge-and-supplier-calls: every call answers without a
 *  credential. */
export const dentalKnowledgeRoutes: FastifyPluginAsyncZod<DentalKnowledgeRoutesOptions> = (
  app,
  { dentalKnowledge },
) => {
  app.get(
    dentalKnowledgePath,
    {
      schema: {
        tags,
        summary:
          'Every dental knowledge article, or those whose title or text holds every word of q',
        querystring: knowledgeListQuery,
        response: { 200: knowledgeList, 400: problem },
      },
    },
    (request) => dentalKnowledge.list(request.query.q),
  );

  app.get(
    `${dentalKnowledgePath}:knowledgeId/`,
    {
      schema: {
        tags,
        summary: 'One article: title, update date and the address of its markdown',
        params: knowledgeParams,
        response: { 200: knowledgeArticle, 400: problem, 404: problem },
      },
    },
    (request) => dentalKnowledge.get(request.params.knowledgeId),
  );

  app.get(
    `${dentalKnowledgePath}:knowledgeId/markdown/`,
    {
      schema: {
        tags,
        summary: 'The article’s body as markdown text (ETag; 304 on If-None-Match)',
        params: knowledgeParams,
        produces: ['text/markdown'],
        response: { 200: z.string(), 400: problem, 404: problem },
      },
    },
    async (request, reply) =>
      sendMarkdown(request, reply, await dentalKnowledge.markdown(request.params.knowledgeId)),
  );

  return Promise.resolve();
};

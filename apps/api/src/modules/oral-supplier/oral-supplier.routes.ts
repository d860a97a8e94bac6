import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  oralSupplierPath,
  oralSupplierTopicPath,
  problem,
  supplier,
  supplierList,
  supplierParams,
  supplierTopic,
} from '@dental/contracts';
import { security } from '#api/lib/openapi-security';
import { sendMarkdown } from '../content/markdown-reply';
import { supplierTopicMarkdownPath, type OralSupplierService } from './oral-supplier.service';

export interface OralSupplierRoutesOptions {
  oralSuppliers: OralSupplierService;
}

const tags = ['oral-supplier'];
const notAudited = { none: 'published supplier pages, no member data' };
const markdownSummary = 'The page’s body as markdown text, without a credential (ETag; 304)';

/** docs/product/knowledge.md#knowledge-and-supplier-calls: the records need the bearer token; their
 *  markdown documents do not. */
export const oralSupplierRoutes: FastifyPluginAsyncZod<OralSupplierRoutesOptions> = (
  app,
  { oralSuppliers },
) => {
  const authenticated = { onRequest: app.authenticate };

  app.get(
    oralSupplierPath,
    {
      ...authenticated,
      config: { audit: notAudited },
      schema: {
        tags,
        summary: 'Every supplier page: id, title, cover',
        security,
        response: { 200: supplierList, 401: problem },
      },
    },
    () => oralSuppliers.list(),
  );

  app.get(
    oralSupplierTopicPath,
    {
      ...authenticated,
      config: { audit: notAudited },
      schema: {
        tags,
        summary: 'The heading, picture and introduction above the supplier cards',
        security,
        response: { 200: supplierTopic, 401: problem },
      },
    },
    () => oralSuppliers.topic(),
  );

  app.get(
    supplierTopicMarkdownPath,
    {
      schema: {
        tags,
        summary: markdownSummary,
        produces: ['text/markdown'],
        response: { 200: z.string() },
      },
    },
    async (request, reply) => sendMarkdown(request, reply, await oralSuppliers.topicMarkdown()),
  );

  app.get(
    `${oralSupplierPath}:supplierId/`,
    {
      ...authenticated,
      config: { audit: notAudited },
      schema: {
        tags,
        summary: 'One supplier page: title, cover, markdown address and where to buy',
        security,
        params: supplierParams,
        response: { 200: supplier, 400: problem, 401: problem, 404: problem },
      },
    },
    (request) => oralSuppliers.get(request.params.supplierId),
  );

  app.get(
    `${oralSupplierPath}:supplierId/markdown/`,
    {
      schema: {
        tags,
        summary: markdownSummary,
        params: supplierParams,
        produces: ['text/markdown'],
        response: { 200: z.string(), 400: problem, 404: problem },
      },
    },
    async (request, reply) =>
      sendMarkdown(request, reply, await oralSuppliers.markdown(request.params.supplierId)),
  );

  return Promise.resolve();
};

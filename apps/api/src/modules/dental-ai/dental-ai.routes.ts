import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  dentalAiPaths,
  dentalAiPhotoRequest,
  dentalAiRequest,
  dentalAiResult,
  dentalAiResultList,
  dentalAiResultListQuery,
  dentalAiStatus,
} from '@dental/contracts';
import { security } from '#api/lib/openapi-security';
import { sendPage } from '#api/lib/pagination';
import { problems } from '#api/lib/problem-responses';
import type { DentalAiService } from './dental-ai.service';

export interface DentalAiRoutesOptions {
  dentalAi: DentalAiService;
}

const tags = ['dental-ai'];
const params = z.object({ id: z.uuid('This is not a result id.') });
const noContent = z.null().describe('No content');
/** A 5 MB image is about 6.7 MiB in base64, plus the type
 *  (docs/decisions/upload-body-limits.md). */
const uploadBodyLimit = 8 * 1024 * 1024;
/** A run's row is committed with its result; a refused or failed run's is the plugin's. */
const createdResultAudit = {
  action: 'create',
  resourceType: 'dental_ai_result',
  resourceId: 'answer',
  successRecordedBy: 'DentalAiService, in the transaction that stores the result',
} as const;

/** docs/product/dental-ai.md#dental-ai-calls, plus the status and stored-result reads
 *  (docs/decisions/dental-ai-api.md). */
export const dentalAiRoutes: FastifyPluginAsyncZod<DentalAiRoutesOptions> = (app, { dentalAi }) => {
  const authenticated = { onRequest: app.authenticate };

  app.get(
    dentalAiPaths.root,
    {
      ...authenticated,
      config: {
        audit: { none: 'the server’s detection types and the plan’s uses, no health data' },
      },
      schema: {
        tags,
        security,
        summary: 'Which detection types this server runs, and the plan’s uses this year',
        response: { 200: dentalAiStatus, ...problems(401) },
      },
    },
    (request) => dentalAi.status(request.user.id),
  );

  app.get(
    dentalAiPaths.results,
    {
      ...authenticated,
      config: { audit: { action: 'read', resourceType: 'dental_ai_result_list' } },
      schema: {
        tags,
        security,
        summary: 'The member’s stored detection results, newest first',
        querystring: dentalAiResultListQuery,
        response: { 200: dentalAiResultList, ...problems(400, 401) },
      },
    },
    async (request, reply) =>
      sendPage(request, reply, await dentalAi.list(request.memberId, request.query), request.query),
  );

  app.delete(
    `${dentalAiPaths.root}:id/`,
    {
      ...authenticated,
      config: {
        audit: { action: 'delete', resourceType: 'dental_ai_result', resourceId: { param: 'id' } },
      },
      schema: {
        tags,
        security,
        summary: 'Delete a stored detection result and its image (the use stays spent)',
        params,
        response: { 204: noContent, ...problems(400, 401, 404) },
      },
    },
    async (request, reply) => {
      await dentalAi.delete(request.user.id, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    `${dentalAiPaths.root}:id/`,
    {
      ...authenticated,
      config: {
        audit: { action: 'read', resourceType: 'dental_ai_result', resourceId: { param: 'id' } },
      },
      schema: {
        tags,
        security,
        summary: 'One stored detection result',
        params,
        response: { 200: dentalAiResult, ...problems(400, 401, 404) },
      },
    },
    (request) => dentalAi.get(request.memberId, request.params.id),
  );

  app.post(
    dentalAiPaths.root,
    {
      ...authenticated,
      bodyLimit: uploadBodyLimit,
      config: {
        upload: true,
        audit: createdResultAudit,
      },
      schema: {
        tags,
        security,
        summary:
          'Detect caries (on a colour photo or an X-ray) or wisdom teeth (on a panoramic X-ray) in an image (JPEG, PNG or WebP up to 5 MB)',
        body: dentalAiRequest,
        response: { 201: dentalAiResult, ...problems(400, 401, 413, 415, 422, 503) },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          await dentalAi.detect(
            request.user.id,
            request.body.dental_ai,
            request.body.image_url,
            request.body.image_kind,
          ),
        ),
  );

  app.post(
    dentalAiPaths.photo,
    {
      ...authenticated,
      config: {
        audit: createdResultAudit,
      },
      schema: {
        tags,
        security,
        summary:
          'Detect caries or wisdom teeth on one of the member’s stored photos or X-rays, with no second upload (one of the plan’s uses)',
        body: dentalAiPhotoRequest,
        response: { 201: dentalAiResult, ...problems(400, 401, 404, 415, 422, 503) },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          await dentalAi.detectStoredPhoto(
            request.user.id,
            request.body.dental_ai,
            request.body.oral_photo_id,
          ),
        ),
  );

  return Promise.resolve();
};

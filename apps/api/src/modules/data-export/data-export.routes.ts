import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dataExport, dataExportList, dataExportPaths, dataExportStarted } from '@dental/contracts';
import { security } from '#api/lib/openapi-security';
import { problems } from '#api/lib/problem-responses';
import type { DataExportService } from './data-export.service';

export interface DataExportRoutesOptions {
  dataExports: DataExportService;
}

const tags = ['account'];
const params = z.object({ id: z.uuid('This is not an export id.') });

/** 'Download my data' (docs/decisions/data-export.md). */
export const dataExportRoutes: FastifyPluginAsyncZod<DataExportRoutesOptions> = (
  app,
  { dataExports },
) => {
  const authenticated = { onRequest: app.authenticate };

  app.post(
    dataExportPaths.root,
    {
      ...authenticated,
      config: { audit: { action: 'create', resourceType: 'data_export', resourceId: 'answer' } },
      schema: {
        tags,
        security,
        summary:
          'Start building a zip of the member’s whole record (FHIR R4 Bundle and every file); one already being built is answered instead',
        response: { 202: dataExportStarted, ...problems(401) },
      },
    },
    async (request, reply) => reply.code(202).send(await dataExports.request(request.user.id)),
  );

  app.get(
    dataExportPaths.root,
    {
      ...authenticated,
      config: {
        audit: {
          none: 'states and links only, read on every Profile visit (docs/decisions/data-export.md)',
        },
      },
      schema: {
        tags,
        security,
        summary: 'The member’s exports being built, failed, or downloadable, newest first',
        response: { 200: dataExportList, ...problems(401) },
      },
    },
    (request) => dataExports.list(request.user.id),
  );

  app.get(
    `${dataExportPaths.root}:id/`,
    {
      ...authenticated,
      config: {
        audit: { action: 'read', resourceType: 'data_export', resourceId: { param: 'id' } },
      },
      schema: {
        tags,
        security,
        summary: 'One export: its status, progress and, once done, a download link valid 7 days',
        params,
        response: { 200: dataExport, ...problems(400, 401, 404) },
      },
    },
    (request) => dataExports.get(request.user.id, request.params.id),
  );

  return Promise.resolve();
};

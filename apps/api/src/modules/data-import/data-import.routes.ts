import multipart from '@fastify/multipart';
import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  dataImport,
  dataImportLimits,
  dataImportNoFileMessage,
  dataImportPaths,
  dataImportStarted,
  dataImportTooLargeMessage,
} from '@dental/contracts';
import { BadRequest } from '#api/domain-errors';
import { security } from '#api/lib/openapi-security';
import { problems } from '#api/lib/problem-responses';
import { PayloadTooLarge } from '../uploads/upload-errors';
import type { DataImportService } from './data-import.service';

export interface DataImportRoutesOptions {
  dataImports: DataImportService;
}

const tags = ['account'];
const params = z.object({ id: z.uuid('This is not an import id.') });

/** The Bundle or zip sent as the body itself, not parsed here: the service tells them apart by
 *  their bytes. */
const rawTypes = ['application/json', 'application/fhir+json', 'application/zip'];

/** The one file of a multipart form, or the body sent as it is. */
async function uploadedBytes(request: FastifyRequest): Promise<Buffer> {
  if (!request.isMultipart()) {
    if (!Buffer.isBuffer(request.body) || request.body.length === 0) {
      throw new BadRequest(dataImportNoFileMessage);
    }
    return request.body;
  }
  const file = await request.file();
  if (file === undefined) throw new BadRequest(dataImportNoFileMessage);
  const bytes = await file.toBuffer();
  // busboy stops at the limit and marks the file cut short.
  if (file.file.truncated) throw new PayloadTooLarge(dataImportTooLargeMessage);
  return bytes;
}

/** 'Import a record' (docs/decisions/data-import.md). */
export const dataImportRoutes: FastifyPluginAsyncZod<DataImportRoutesOptions> = async (
  app,
  { dataImports },
) => {
  // Inside this plugin only: the other routes keep their JSON bodies and refuse forms.
  await app.register(multipart, {
    limits: { fileSize: dataImportLimits.maxBytes, files: 1, fields: 0, parts: 2 },
    throwFileSizeLimit: false,
  });
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    rawTypes,
    { parseAs: 'buffer', bodyLimit: dataImportLimits.maxBytes },
    (_request, body, done) => {
      done(null, body);
    },
  );

  app.post(
    dataImportPaths.root,
    {
      onRequest: app.authenticate,
      bodyLimit: dataImportLimits.maxBytes,
      config: { audit: { action: 'create', resourceType: 'data_import', resourceId: 'answer' } },
      schema: {
        tags,
        security,
        summary:
          'Import a zip made by ‘Download my data’ (or its FHIR Bundle alone) into the member’s record, as a background job',
        response: { 202: dataImportStarted, ...problems(400, 401, 413) },
      },
    },
    async (request, reply) =>
      reply
        .code(202)
        .send(await dataImports.request(request.user.id, await uploadedBytes(request))),
  );

  app.get(
    `${dataImportPaths.root}:id/`,
    {
      onRequest: app.authenticate,
      config: {
        audit: { action: 'read', resourceType: 'data_import', resourceId: { param: 'id' } },
      },
      schema: {
        tags,
        security,
        summary:
          'One import: its status, progress, and what it imported, skipped or could not read',
        params,
        response: { 200: dataImport, ...problems(400, 401, 404) },
      },
    },
    (request) => dataImports.get(request.user.id, request.params.id),
  );
};

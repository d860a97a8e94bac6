import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  maxFilesPerRequest,
  medicalFile,
  medicalRecord,
  medicalRecordList,
  medicalRecordListQuery,
  medicalRecordOutsideRangeQuery,
  outsideRangeCount,
  medicalRecordPaths,
  newMedicalFileRequest,
  newMedicalRecordRequest,
  updateMedicalRecordRequest,
} from '@dental/contracts';
import { security } from '#api/lib/openapi-security';
import { sendPage } from '#api/lib/pagination';
import { problems } from '#api/lib/problem-responses';
import type { MedicalRecordService } from './medical-records.service';

export interface MedicalRecordRoutesOptions {
  medicalRecords: MedicalRecordService;
}

const tags = ['medical-records'];
const recordId = z.uuid('This is not a record id.');
const recordParams = z.object({ id: recordId });
const fileParams = z.object({ id: recordId, fileId: z.uuid('This is not a file id.') });
const noContent = z.null().describe('No content');
/** A 10 MB PDF is about 13.4 MiB in base64 (docs/decisions/upload-body-limits.md). */
const oneFileBodyLimit = 14 * 1024 * 1024;
const recordBodyLimit = maxFilesPerRequest * oneFileBodyLimit;
const base = medicalRecordPaths.list;

/** The record calls (docs/product/records.md#record-calls). */
export const medicalRecordRoutes: FastifyPluginAsyncZod<MedicalRecordRoutesOptions> = (
  app,
  { medicalRecords },
) => {
  const authenticated = { onRequest: app.authenticate };

  app.get(
    base,
    {
      ...authenticated,
      config: { audit: { action: 'read', resourceType: 'medical_record_list' } },
      schema: {
        tags,
        security,
        summary: 'The member’s records by record date, in the order asked for',
        querystring: medicalRecordListQuery,
        response: { 200: medicalRecordList, ...problems(400, 401) },
      },
    },
    async (request, reply) =>
      sendPage(
        request,
        reply,
        await medicalRecords.list(request.memberId, request.query),
        request.query,
      ),
  );

  app.get(
    medicalRecordPaths.outsideRange,
    {
      ...authenticated,
      config: { audit: { action: 'read', resourceType: 'medical_record_list' } },
      schema: {
        tags,
        security,
        summary: 'How many of the member’s records lie before and after the dates',
        querystring: medicalRecordOutsideRangeQuery,
        response: { 200: outsideRangeCount, ...problems(400, 401) },
      },
    },
    (request) => medicalRecords.outsideRange(request.memberId, request.query),
  );

  app.get(
    `${base}:id/`,
    {
      ...authenticated,
      config: {
        audit: { action: 'read', resourceType: 'medical_record', resourceId: { param: 'id' } },
      },
      schema: {
        tags,
        security,
        summary: 'One record with its files',
        params: recordParams,
        response: { 200: medicalRecord, ...problems(400, 401, 404) },
      },
    },
    (request) => medicalRecords.get(request.memberId, request.params.id),
  );

  app.post(
    base,
    {
      ...authenticated,
      bodyLimit: recordBodyLimit,
      config: {
        idempotent: true,
        upload: true,
        audit: { action: 'create', resourceType: 'medical_record', resourceId: 'answer' },
      },
      schema: {
        tags,
        security,
        summary: 'Store a record with its files (images up to 5 MB, PDFs up to 10 MB)',
        body: newMedicalRecordRequest,
        response: { 201: medicalRecord, ...problems(400, 401, 413, 415, 422) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await medicalRecords.create(request.user.id, request.body)),
  );

  app.put(
    `${base}:id/`,
    {
      ...authenticated,
      config: {
        audit: { action: 'change', resourceType: 'medical_record', resourceId: { param: 'id' } },
      },
      schema: {
        tags,
        security,
        summary: 'Change a record’s title, date and note',
        params: recordParams,
        body: updateMedicalRecordRequest,
        response: { 200: medicalRecord, ...problems(400, 401, 404) },
      },
    },
    (request) => medicalRecords.update(request.user.id, request.params.id, request.body),
  );

  app.delete(
    `${base}:id/`,
    {
      ...authenticated,
      config: {
        audit: { action: 'delete', resourceType: 'medical_record', resourceId: { param: 'id' } },
      },
      schema: {
        tags,
        security,
        summary: 'Delete a record and its files',
        params: recordParams,
        response: { 204: noContent, ...problems(400, 401, 404) },
      },
    },
    async (request, reply) => {
      await medicalRecords.delete(request.user.id, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    `${base}:id/medical-file/`,
    {
      ...authenticated,
      bodyLimit: oneFileBodyLimit,
      config: {
        idempotent: true,
        upload: true,
        audit: { action: 'create', resourceType: 'medical_file', resourceId: 'answer' },
      },
      schema: {
        tags,
        security,
        summary: 'Attach a file to a record; answers the new file',
        params: recordParams,
        body: newMedicalFileRequest,
        response: { 201: medicalFile, ...problems(400, 401, 404, 413, 415, 422) },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await medicalRecords.addFile(request.user.id, request.params.id, request.body)),
  );

  app.delete(
    `${base}:id/medical-file/:fileId/`,
    {
      ...authenticated,
      config: {
        audit: { action: 'delete', resourceType: 'medical_file', resourceId: { param: 'fileId' } },
      },
      schema: {
        tags,
        security,
        summary: 'Remove a file from a record',
        params: fileParams,
        response: { 204: noContent, ...problems(400, 401, 404) },
      },
    },
    async (request, reply) => {
      await medicalRecords.removeFile(request.user.id, request.params.id, request.params.fileId);
      return reply.code(204).send(null);
    },
  );

  return Promise.resolve();
};

import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  captureSet,
  newOralPhotoRequest,
  oralPhoto,
  oralPhotoList,
  oralPhotoListQuery,
  oralPhotoOutsideRangeQuery,
  outsideRangeCount,
  oralPhotoPaths,
  updateOralPhotoRequest,
  type AuditResourceType,
} from '@dental/contracts';
import { security } from '#api/lib/openapi-security';
import { sendPage } from '#api/lib/pagination';
import { problems } from '#api/lib/problem-responses';
import type { OralPhotoService } from './oral-photo.service';

export interface OralPhotoRoutesOptions {
  oralPhotos: OralPhotoService;
}

const tags = ['oral-photo'];
const params = z.object({ id: z.uuid('This is not a photo id.') });
const setParams = z.object({ setId: z.uuid('This is not a set id.') });
const noContent = z.null().describe('No content');
/** A 10 MB DICOM file is about 13.4 MiB in base64, plus the other fields
 *  (docs/decisions/upload-body-limits.md, docs/decisions/dicom-import.md). */
const uploadBodyLimit = 14 * 1024 * 1024;
/** Audit rows say which kind of image it was, so Account activity can say 'You opened an X-ray'. */
const photoKind = (answer: Record<string, unknown>): AuditResourceType =>
  answer.photo_type === 'X-ray' ? 'x_ray' : 'photo';

/** The photo calls (docs/product/records.md#photo-calls). */
export const oralPhotoRoutes: FastifyPluginAsyncZod<OralPhotoRoutesOptions> = (
  app,
  { oralPhotos },
) => {
  const authenticated = { onRequest: app.authenticate };

  app.get(
    oralPhotoPaths.list,
    {
      ...authenticated,
      config: { audit: { action: 'read', resourceType: 'oral_photo_list' } },
      schema: {
        tags,
        security,
        summary: 'The member’s photos and X-rays by type and shoot date, newest first',
        querystring: oralPhotoListQuery,
        response: { 200: oralPhotoList, ...problems(400, 401) },
      },
    },
    async (request, reply) =>
      sendPage(
        request,
        reply,
        await oralPhotos.list(request.memberId, request.query),
        request.query,
      ),
  );

  app.get(
    oralPhotoPaths.outsideRange,
    {
      ...authenticated,
      config: { audit: { action: 'read', resourceType: 'oral_photo_list' } },
      schema: {
        tags,
        security,
        summary:
          'How many of the member’s photos and X-rays of the type lie before and after the dates',
        querystring: oralPhotoOutsideRangeQuery,
        response: { 200: outsideRangeCount, ...problems(400, 401) },
      },
    },
    (request) => oralPhotos.outsideRange(request.memberId, request.query),
  );

  app.get(
    `${oralPhotoPaths.list}:id/`,
    {
      ...authenticated,
      config: {
        audit: {
          action: 'read',
          resourceType: 'oral_photo',
          resourceId: { param: 'id' },
          typeFromAnswer: photoKind,
        },
      },
      schema: {
        tags,
        security,
        summary: 'One photo',
        params,
        response: { 200: oralPhoto, ...problems(400, 401, 404) },
      },
    },
    (request) => oralPhotos.get(request.memberId, request.params.id),
  );

  app.get(
    oralPhotoPaths.captureSet(':setId'),
    {
      ...authenticated,
      config: {
        audit: { action: 'read', resourceType: 'oral_photo_set', resourceId: { param: 'setId' } },
      },
      schema: {
        tags,
        security,
        summary: 'The photos of one guided capture by view, with the set taken before it',
        params: setParams,
        response: { 200: captureSet, ...problems(400, 401, 404) },
      },
    },
    (request) => oralPhotos.getCaptureSet(request.memberId, request.params.setId),
  );

  app.post(
    oralPhotoPaths.list,
    {
      ...authenticated,
      bodyLimit: uploadBodyLimit,
      config: {
        idempotent: true,
        upload: true,
        audit: {
          action: 'create',
          resourceType: 'oral_photo',
          resourceId: 'answer',
          typeFromAnswer: photoKind,
        },
      },
      schema: {
        tags,
        security,
        summary:
          'Store a photo or X-ray (JPEG, PNG or WebP up to 5 MB, or DICOM up to 10 MB rendered to PNG, as a data link)',
        body: newOralPhotoRequest,
        response: { 201: oralPhoto, ...problems(400, 401, 409, 413, 415, 422) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await oralPhotos.create(request.user.id, request.body)),
  );

  app.put(
    `${oralPhotoPaths.list}:id/`,
    {
      ...authenticated,
      bodyLimit: uploadBodyLimit,
      config: {
        upload: true,
        audit: {
          action: 'change',
          resourceType: 'oral_photo',
          resourceId: { param: 'id' },
          typeFromAnswer: photoKind,
        },
      },
      schema: {
        tags,
        security,
        summary: 'Change a photo’s date, type and note; a new image is optional',
        params,
        body: updateOralPhotoRequest,
        response: { 200: oralPhoto, ...problems(400, 401, 404, 413, 415, 422) },
      },
    },
    (request) => oralPhotos.update(request.user.id, request.params.id, request.body),
  );

  app.delete(
    `${oralPhotoPaths.list}:id/`,
    {
      ...authenticated,
      config: {
        audit: { action: 'delete', resourceType: 'oral_photo', resourceId: { param: 'id' } },
      },
      schema: {
        tags,
        security,
        summary: 'Delete a photo and its stored image',
        params,
        response: { 204: noContent, ...problems(400, 401, 404) },
      },
    },
    async (request, reply) => {
      await oralPhotos.delete(request.user.id, request.params.id);
      return reply.code(204).send(null);
    },
  );

  return Promise.resolve();
};

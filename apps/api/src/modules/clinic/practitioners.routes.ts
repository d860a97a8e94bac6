import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  clinicConsultationPaths,
  clinicIdParams,
  practitioner,
  practitionerList,
  updatePractitionerRequest,
} from '@dental/contracts';
import { security } from '#api/lib/openapi-security';
import { problems } from '#api/lib/problem-responses';
import type { PractitionerService } from './practitioners.service';

export interface PractitionerRoutesOptions {
  practitioners: PractitionerService;
}

const tags = ['clinic'];
const noContent = z.null().describe('No content');
/** A 5 MB portrait is about 6.7 MiB in base64, plus the name and bio. */
const portraitBodyLimit = 8 * 1024 * 1024;
const noHealthData = { none: 'the practice’s doctors, no patient data' };

/** The doctors patients book, as the admin keeps them (docs/decisions/clinic-consultations.md). */
export const practitionerRoutes: FastifyPluginAsyncZod<PractitionerRoutesOptions> = (
  app,
  { practitioners },
) => {
  app.get(
    clinicConsultationPaths.practitioners,
    {
      onRequest: app.authenticateStaff,
      config: { audit: noHealthData },
      schema: {
        tags,
        security,
        summary: 'Every practitioner, removed ones too, with bio, portrait and slot length',
        response: { 200: practitionerList, ...problems(401, 403) },
      },
    },
    () => practitioners.list(),
  );

  app.patch(
    `${clinicConsultationPaths.practitioners}:id/`,
    {
      onRequest: app.authenticateStaff,
      preHandler: app.requireClinicAdmin,
      bodyLimit: portraitBodyLimit,
      config: { upload: true, audit: noHealthData },
      schema: {
        tags,
        security,
        summary: 'Change a practitioner’s name, bio or portrait (a data link, or null to remove)',
        params: clinicIdParams,
        body: updatePractitionerRequest,
        response: { 200: practitioner, ...problems(400, 401, 403, 404, 409, 413, 415) },
      },
    },
    (request) => practitioners.update(request.params.id, request.body),
  );

  app.delete(
    `${clinicConsultationPaths.practitioners}:id/`,
    {
      onRequest: app.authenticateStaff,
      preHandler: app.requireClinicAdmin,
      config: { audit: noHealthData },
      schema: {
        tags,
        security,
        summary: 'Remove a practitioner from booking; past consultations keep the name',
        params: clinicIdParams,
        response: { 204: noContent, ...problems(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await practitioners.remove(request.params.id);
      return reply.code(204).send(null);
    },
  );

  return Promise.resolve();
};

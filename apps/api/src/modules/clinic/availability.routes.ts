import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  availability,
  availabilityRequest,
  clinicConsultationPaths,
  clinicIdParams,
} from '@dental/contracts';
import { security } from '#api/lib/openapi-security';
import { problems } from '#api/lib/problem-responses';
import type { AvailabilityService } from './availability.service';

export interface AvailabilityRoutesOptions {
  availability: AvailabilityService;
}

const tags = ['clinic'];
const path = `${clinicConsultationPaths.practitioners}:id/availability/`;
const noHealthData = { none: 'a practitioner’s hours, no patient data' };

/** A practitioner's hours: any staff member reads them, a practitioner changes their own, an
 *  admin anyone's (docs/decisions/clinic-consultations.md). */
export const availabilityRoutes: FastifyPluginAsyncZod<AvailabilityRoutesOptions> = (
  app,
  { availability: hours },
) => {
  app.get(
    path,
    {
      onRequest: app.authenticateStaff,
      config: { audit: noHealthData },
      schema: {
        tags,
        security,
        summary: 'A practitioner’s time zone, slot length, weekly hours and days off',
        params: clinicIdParams,
        response: { 200: availability, ...problems(400, 401, 403, 404) },
      },
    },
    (request) => hours.get(request.params.id),
  );

  app.put(
    path,
    {
      onRequest: app.authenticateStaff,
      config: { audit: noHealthData },
      schema: {
        tags,
        security,
        summary:
          'Replace a practitioner’s hours (their own, or anyone’s for an admin); patients’ slots follow at once',
        params: clinicIdParams,
        body: availabilityRequest,
        response: { 200: availability, ...problems(400, 401, 403, 404) },
      },
    },
    (request) => hours.put(request.staff, request.params.id, request.body),
  );

  return Promise.resolve();
};

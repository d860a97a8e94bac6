import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  clinicConsultationPage,
  clinicConsultationPaths,
  clinicConsultationQuery,
  clinicIdParams,
  clinicSummary,
  summaryRequest,
} from '@dental/contracts';
import type { FastifyRequest } from 'fastify';
import { security } from '#api/lib/openapi-security';
import { nextPagePath } from '#api/lib/pagination';
import { problems } from '#api/lib/problem-responses';
import type { ClinicConsultationService, ConsultationScope } from './consultations.service';

export interface ClinicConsultationRoutesOptions {
  clinicConsultations: ClinicConsultationService;
}

const tags = ['clinic'];
/** Four 5 MB images are about 27 MiB in base64, plus the three texts. */
const summaryBodyLimit = 28 * 1024 * 1024;

/** A practitioner reads and writes their own consultations; an admin everyone's. */
const scopeOf = ({ staff }: FastifyRequest): ConsultationScope => ({
  staffId: staff.id,
  // A practitioner always has a doctors row; were it missing, their own user id names no
  // doctor, so they would see nothing rather than everything.
  practitionerId: staff.role === 'clinic_admin' ? null : (staff.practitionerId ?? staff.id),
});

/** The consultations booked with a practitioner and their summaries
 *  (docs/decisions/clinic-consultations.md). */
export const clinicConsultationRoutes: FastifyPluginAsyncZod<ClinicConsultationRoutesOptions> = (
  app,
  { clinicConsultations },
) => {
  app.get(
    clinicConsultationPaths.consultations,
    {
      onRequest: app.authenticateStaff,
      config: {
        audit: {
          none: 'the service writes one row per consultation shown into its patient’s chain',
        },
      },
      schema: {
        tags,
        security,
        summary:
          'Consultations of today or later (soonest first) or of the past (latest first), with answers and summaries',
        querystring: clinicConsultationQuery,
        response: { 200: clinicConsultationPage, ...problems(400, 401, 403) },
      },
    },
    async (request) => {
      const { period } = request.query;
      const page = await clinicConsultations.list(scopeOf(request), period, request.query);
      return {
        results: page.items,
        next: page.more ? nextPagePath(request, request.query) : null,
      };
    },
  );

  app.put(
    `${clinicConsultationPaths.consultations}:id/summary/`,
    {
      onRequest: app.authenticateStaff,
      bodyLimit: summaryBodyLimit,
      config: {
        upload: true,
        audit: { none: 'the service writes the row into the patient’s chain' },
      },
      schema: {
        tags,
        security,
        summary:
          'Write or rewrite the doctor’s summary of a consultation whose time has come; images as data links',
        params: clinicIdParams,
        body: summaryRequest,
        response: { 200: clinicSummary, ...problems(400, 401, 403, 404, 409, 413, 415) },
      },
    },
    (request) =>
      clinicConsultations.writeSummary(scopeOf(request), request.params.id, request.body),
  );

  return Promise.resolve();
};

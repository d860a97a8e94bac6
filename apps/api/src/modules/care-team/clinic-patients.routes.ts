import type { Readable } from 'node:stream';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import {
  clinicPatientItemsQuery,
  clinicPatientList,
  clinicPatientParams,
  clinicPatientRoutePatterns,
  medicalRecordList,
  oralPhotoList,
  type AuditResourceType,
} from '@dental/contracts';
import { security } from '#api/lib/openapi-security';
import { sendPage } from '#api/lib/pagination';
import { problems } from '#api/lib/problem-responses';
import { linkedFileHeaders, type LinkedFile } from '#api/lib/signed-links';
import {
  scopedFileOpener,
  type AuditSubjectLookup,
  type ScopedFileLinks,
} from '../audit/audit-declarations';
import type { CareTeamService } from './care-team.service';

/** A staff member's file links: checked, and opened while the grant allows (the share links'
 *  SharedFiles at the care team's path, wired in services.ts). */
export interface StaffFiles extends ScopedFileLinks {
  open(
    path: string,
    query: Readonly<Record<string, unknown>>,
  ): Promise<{ file: LinkedFile; size: number; body: Readable | Buffer }>;
}

export interface ClinicPatientRoutesOptions {
  careTeam: CareTeamService;
  staffFiles: StaffFiles;
}

/** Where a staff member's file links are served: `<path><staff id>/<sealed key>?…&sig=…`. Apart
 *  from /api/clinic/: an `<img>` sends no bearer token, the signed link is the credential. */
export const careTeamFilesPath = '/api/care-team-files/';

const tags = ['clinic'];

/**
 * The practice's staff read what a patient shares (docs/decisions/care-team-access.md). Each
 * read joins the PATIENT's chain with the staff member as its actor, so their Account activity
 * names who looked; a refused read (a patient they may not know of) stays in the staff member's
 * own chain and never touches the patient's, as a refused delegate read does.
 */
export const clinicPatientRoutes: FastifyPluginAsyncZod<ClinicPatientRoutesOptions> = (
  app,
  { careTeam, staffFiles },
) => {
  // Who passed the staff guard: a request refused by it has no staff member to read.
  const readers = new WeakMap<FastifyRequest, string>();
  const onRequest = [
    app.authenticateStaff,
    (request: FastifyRequest, _reply: unknown, done: () => void) => {
      readers.set(request, request.staff.id);
      done();
    },
  ];
  const staffRead: AuditSubjectLookup = (request, _lookups, _answer, succeeded) => {
    const staffId = readers.get(request);
    if (staffId === undefined) return Promise.resolve(null);
    const patientId = (request.params as { id?: unknown }).id;
    return Promise.resolve(
      succeeded && typeof patientId === 'string'
        ? { memberId: patientId, actor: staffId }
        : { memberId: staffId, actor: staffId },
    );
  };
  const readOf = (resourceType: AuditResourceType) => ({
    audit: { action: 'read' as const, resourceType, subject: staffRead },
  });

  app.get(
    clinicPatientRoutePatterns.list,
    {
      onRequest,
      config: {
        audit: {
          none: 'names and whether each shares or booked; their items’ reads are recorded',
        },
      },
      schema: {
        tags,
        security,
        summary: 'The patients this staff member may see: sharing with the practice, or booked',
        response: { 200: clinicPatientList, ...problems(401, 403) },
      },
    },
    (request) => careTeam.patients(request.staff),
  );

  app.get(
    clinicPatientRoutePatterns.oralPhotos,
    {
      onRequest,
      config: readOf('oral_photo_list'),
      schema: {
        tags,
        security,
        summary: 'The photos and X-rays the patient shares with the practice, newest first',
        params: clinicPatientParams,
        querystring: clinicPatientItemsQuery,
        response: { 200: oralPhotoList, ...problems(400, 401, 403, 404) },
      },
    },
    async (request, reply) =>
      sendPage(
        request,
        reply,
        await careTeam.oralPhotos(request.staff, request.params.id, request.query),
        request.query,
      ),
  );

  app.get(
    clinicPatientRoutePatterns.medicalRecords,
    {
      onRequest,
      config: readOf('medical_record_list'),
      schema: {
        tags,
        security,
        summary: 'The records the patient shares with the practice, with their files',
        params: clinicPatientParams,
        querystring: clinicPatientItemsQuery,
        response: { 200: medicalRecordList, ...problems(400, 401, 403, 404) },
      },
    },
    async (request, reply) =>
      sendPage(
        request,
        reply,
        await careTeam.medicalRecords(request.staff, request.params.id, request.query),
        request.query,
      ),
  );

  // Each opening joins the owner's chain with the staff member the link was made for as actor.
  const fileOpener = scopedFileOpener(staffFiles, (staffId) => staffId);

  app.get(
    `${careTeamFilesPath}*`,
    {
      config: { audit: { action: 'download', resourceType: 'oral_photo', subject: fileOpener } },
      schema: {
        tags,
        summary:
          'A shared photo or record file through the signed link a staff list answered; ' +
          'it stops when the patient stops sharing it',
        params: z.object({ '*': z.string() }),
        querystring: z.record(z.string(), z.union([z.string(), z.array(z.string())])),
        response: { 200: z.unknown().describe('The file’s bytes'), ...problems(403, 404, 500) },
      },
    },
    async (request, reply) => {
      const { file, size, body } = await staffFiles.open(request.params['*'], request.query);
      return reply.headers(linkedFileHeaders(file, size)).send(body);
    },
  );

  return Promise.resolve();
};

import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  readyReports,
  report,
  reportList,
  reportPaths,
  reportRequest,
  reportStarted,
} from '@dental/contracts';
import { security } from '#api/lib/openapi-security';
import { problems } from '#api/lib/problem-responses';
import { requestLocale, type ReportService } from './reports.service';

export interface ReportRoutesOptions {
  reports: ReportService;
}

const tags = ['reports'];
const params = z.object({ id: z.uuid('This is not a report id.') });

/** Reports of the member's history as PDFs (docs/decisions/reports.md). */
export const reportRoutes: FastifyPluginAsyncZod<ReportRoutesOptions> = (app, { reports }) => {
  const authenticated = { onRequest: app.authenticate };

  app.post(
    reportPaths.root,
    {
      ...authenticated,
      // Asking for a report reads the member's health data into it (audit-trail.md).
      config: { audit: { action: 'read', resourceType: 'report', resourceId: 'answer' } },
      schema: {
        tags,
        security,
        summary:
          'Generate a treatment history or receipts and history summary report of a period; a use of the plan’s yearly allowance is reserved at once',
        body: reportRequest,
        response: { 202: reportStarted, ...problems(400, 401, 403) },
      },
    },
    async (request, reply) =>
      reply
        .code(202)
        .send(
          await reports.request(
            request.user.id,
            request.body,
            requestLocale(request.headers['accept-language']),
          ),
        ),
  );

  app.get(
    reportPaths.root,
    {
      ...authenticated,
      config: { audit: { action: 'read', resourceType: 'report_list' } },
      schema: {
        tags,
        security,
        summary: 'The member’s reports, newest first, and how many of each kind are left this year',
        response: { 200: reportList, ...problems(401) },
      },
    },
    (request) => reports.list(request.user.id),
  );

  app.get(
    reportPaths.ready,
    {
      ...authenticated,
      config: { audit: { action: 'read', resourceType: 'report_list' } },
      schema: {
        tags,
        security,
        summary:
          'Reports finished in the last 7 days that the member has not downloaded, for Home’s notice: ids and kinds only',
        response: { 200: readyReports, ...problems(401) },
      },
    },
    (request) => reports.ready(request.user.id),
  );

  app.get(
    `${reportPaths.root}:id/`,
    {
      ...authenticated,
      config: { audit: { action: 'read', resourceType: 'report', resourceId: { param: 'id' } } },
      schema: {
        tags,
        security,
        summary: 'One report: its status, progress and, once done, a short-lived download link',
        params,
        response: { 200: report, ...problems(400, 401, 404) },
      },
    },
    (request) => reports.get(request.user.id, request.params.id),
  );

  app.delete(
    `${reportPaths.root}:id/`,
    {
      ...authenticated,
      config: { audit: { action: 'delete', resourceType: 'report', resourceId: { param: 'id' } } },
      schema: {
        tags,
        security,
        summary: 'Delete a report and its PDF; the use it spent is not given back',
        params,
        response: { 204: z.null(), ...problems(400, 401, 404) },
      },
    },
    async (request, reply) => {
      await reports.delete(request.user.id, request.params.id);
      return reply.code(204).send(null);
    },
  );

  return Promise.resolve();
};

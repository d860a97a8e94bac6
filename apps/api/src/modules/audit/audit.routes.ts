import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { activityPage, activityQuery, auditPaths } from '@dental/contracts';
import { security } from '#api/lib/openapi-security';
import { problems } from '#api/lib/problem-responses';
import type { AuditService } from './audit.service';

export interface AuditRoutesOptions {
  audit: AuditService;
}

/** The member's own audit trail (docs/decisions/audit-trail.md). */
export const auditRoutes: FastifyPluginAsyncZod<AuditRoutesOptions> = (app, { audit }) => {
  app.get(
    auditPaths.activity,
    {
      onRequest: app.authenticate,
      config: {
        audit: { none: 'the member’s own trail: a row per visit would bury their real activity' },
      },
      schema: {
        tags: ['account'],
        security,
        summary: 'What was done with the member’s account and health data, newest first',
        querystring: activityQuery,
        response: { 200: activityPage, ...problems(400, 401) },
      },
    },
    (request) => audit.activity(request.user.id, request.query),
  );
  return Promise.resolve();
};

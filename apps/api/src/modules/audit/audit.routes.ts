import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { activityPage, activityQuery, auditPaths } from '@dental/contracts';
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
      schema: {
        tags: ['account'],
        security: [{ bearerAuth: [] }],
        summary: 'What was done with the member’s account and health data, newest first',
        querystring: activityQuery,
        response: { 200: activityPage, ...problems(400, 401) },
      },
    },
    (request) => audit.activity(request.user.id, request.query),
  );
  return Promise.resolve();
};

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { AuditResourceType } from '@dental/contracts';
import { unlessDatabaseAway } from '../../db/database-outage';
import type { AuditLookups, AuditedRoute, RouteAudit } from './audit-declarations';
import { auditContext, type AuditContext, type AuditService } from './audit.service';

export interface AuditPluginOptions {
  audit: AuditService;
  lookups: AuditLookups;
}

interface RequestAudit {
  /** The signed-in member, once authentication has passed. */
  memberId?: string;
  answer?: Record<string, unknown>;
}

const uuidShape = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function contextOf(request: FastifyRequest): AuditContext {
  return {
    ip: request.ip,
    userAgent: request.headers['user-agent'] ?? null,
    requestId: request.id,
  };
}

/** An id from the path only when it has the shape of one: nothing a caller typed is kept. */
function paramId(request: FastifyRequest, name: string): string | null {
  const value = (request.params as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' && uuidShape.test(value) ? value : null;
}

/** The row a request writes, if any: a route's declaration unless it records nothing. */
const recorded = (audit: RouteAudit | undefined): AuditedRoute | undefined =>
  audit === undefined || 'none' in audit ? undefined : audit;

/** A HEAD answer carries no body: only the GET beside it is a read of what it answers. */
const headAudit: RouteAudit = { none: 'a HEAD answer carries no body; its GET is recorded' };

/**
 * Writes the audit row each route declares in `config.audit` (docs/decisions/audit-trail.md).
 * The app refuses to start when an authenticated route declares nothing, so a new route cannot
 * silently stay off the trail. The row is written in onSend, before the answer leaves: nothing
 * is acknowledged without its row, and a row that cannot be written turns the answer into a 500.
 * Register after the member-log plugin and before the feature routes.
 */
export const auditPlugin = fp(
  (app: FastifyInstance, { audit, lookups }: AuditPluginOptions) => {
    const undeclared: string[] = [];
    // Found as routes are registered, refused when the app starts: one error names them all.
    const misdeclared: string[] = [];
    const requests = new WeakMap<FastifyRequest, RequestAudit>();

    app.addHook('onRoute', (route) => {
      const key = `${[route.method].flat().join(',')} ${route.url}`;
      const declared = route.config?.audit;
      const authenticated = route.config?.authenticated === true;
      if (declared === undefined) {
        if (authenticated) undeclared.push(key);
      } else if ('none' in declared) {
        if (declared.none.trim() === '')
          misdeclared.push(`${key} records nothing but says not why`);
      } else if (declared.successRecordedBy?.trim() === '') {
        misdeclared.push(`${key} leaves its successes' rows to another part but says not which`);
      } else if (declared.subject === undefined && !authenticated) {
        misdeclared.push(`${key} is audited as the signed-in member's but is not authenticated`);
      } else if (route.method === 'HEAD') {
        route.config = { ...route.config, audit: headAudit };
      }
    });
    app.addHook('onReady', () => {
      const problems =
        undeclared.length === 0
          ? misdeclared
          : [
              `Authenticated routes that declare no audit (set config.audit to what the route ` +
                `records, or to { none: 'why' }): ${undeclared.join(', ')}`,
              ...misdeclared,
            ];
      return problems.length === 0
        ? Promise.resolve()
        : Promise.reject(new Error(problems.join('; ')));
    });

    // Services that write rows outside a route's own (a plan purchase) read the request's context.
    app.addHook('preHandler', (request, _reply, done) => {
      auditContext.run(contextOf(request), done);
    });

    // After the route's onRequest hooks: on an authenticated route the member is known by now.
    app.addHook('preValidation', (request, _reply, done) => {
      const { audit: declared, authenticated } = request.routeOptions.config;
      if (recorded(declared) !== undefined && authenticated === true) {
        requests.set(request, { memberId: request.user.id });
      }
      done();
    });

    app.addHook('preSerialization', async (request, _reply, payload: unknown) => {
      const spec = recorded(request.routeOptions.config.audit);
      if (spec !== undefined && typeof payload === 'object' && payload !== null) {
        requests.set(request, {
          ...requests.get(request),
          answer: payload as Record<string, unknown>,
        });
      }
      return payload;
    });

    app.addHook('onSend', async (request, reply, payload) => {
      const spec = recorded(request.routeOptions.config.audit);
      if (spec === undefined) return payload;
      if (spec.successRecordedBy !== undefined && reply.statusCode < 400) return payload;
      const writing = write(spec, request, reply);
      await (reply.statusCode >= 500 ? unlessDatabaseAway(writing) : writing);
      return payload;
    });

    async function write(spec: AuditedRoute, request: FastifyRequest, reply: FastifyReply) {
      const succeeded = reply.statusCode < 400;
      const state = requests.get(request) ?? {};
      // Only a successful answer describes the resource; an error's body is a problem.
      const answer = succeeded ? state.answer : undefined;
      let subject;
      if (spec.subject === undefined) {
        // Refused before authentication: there is no member to attribute it to.
        if (state.memberId === undefined) return;
        // A delegate's read joins the owner's chain with the delegate as its actor; otherwise
        // request.memberId is the signed-in member (docs/decisions/proxy-access.md).
        subject = { memberId: request.memberId, actor: state.memberId };
      } else {
        subject = await spec.subject(request, lookups, answer, succeeded);
        if (subject === null) return;
      }
      const resourceType: AuditResourceType =
        subject.resourceType ??
        (answer !== undefined && spec.typeFromAnswer !== undefined
          ? spec.typeFromAnswer(answer)
          : spec.resourceType);
      const resourceId =
        subject.resourceId ??
        (spec.resourceId === undefined
          ? null
          : spec.resourceId === 'answer'
            ? typeof answer?.id === 'string'
              ? answer.id
              : null
            : paramId(request, spec.resourceId.param));
      await audit.record(
        {
          memberId: subject.memberId,
          actor: subject.actor,
          action: spec.action,
          resourceType,
          resourceId,
          result: succeeded ? 'success' : 'failure',
        },
        contextOf(request),
      );
    }

    return Promise.resolve();
  },
  { name: 'audit', dependencies: ['auth', 'member-log'] },
);

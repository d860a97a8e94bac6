import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set for routes that run `app.authenticate` or `app.authenticateStaff` before anything
     *  else. */
    authenticated?: boolean;
  }
}

/**
 * The request log lines of an authenticated request, "request completed" included, carry the
 * member's id as `user_id` (docs/decisions/request-logging.md). Register before the routes.
 */
export const memberLogPlugin = fp(
  (app: FastifyInstance) => {
    app.addHook('onRoute', (route) => {
      const hooks = [route.onRequest].flat();
      if (hooks.includes(app.authenticate) || hooks.includes(app.authenticateStaff)) {
        route.config = { ...route.config, authenticated: true };
      }
    });
    // preValidation runs after the route's onRequest hooks, so the member is known by now.
    app.addHook('preValidation', async (request, reply) => {
      if (request.routeOptions.config.authenticated !== true) return;
      const log = request.log.child({ user_id: request.user.id });
      request.log = log;
      reply.log = log;
    });
    return Promise.resolve();
  },
  { name: 'member-log', dependencies: ['auth', 'staff-guard'] },
);

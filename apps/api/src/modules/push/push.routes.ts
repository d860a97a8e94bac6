import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  pushPaths,
  pushPublicKey,
  pushSubscription,
  pushSubscriptionRequest,
} from '@dental/contracts';
import { security } from '#api/lib/openapi-security';
import { problems } from '#api/lib/problem-responses';
import type { PushService } from './push.service';

export interface PushRoutesOptions {
  push: PushService;
}

const noContent = z.null().describe('No content');
const tags = ['account'];

/** Notifications on this device (docs/decisions/web-push.md). Not delegable. */
export const pushRoutes: FastifyPluginAsyncZod<PushRoutesOptions> = (app, { push }) => {
  const onRequest = app.authenticate;

  app.get(
    pushPaths.publicKey,
    {
      onRequest,
      config: { audit: { none: 'the server’s public key, no data of the member' } },
      schema: {
        tags,
        security,
        summary: 'The VAPID public key a browser subscribes with',
        response: { 200: pushPublicKey, ...problems(401) },
      },
    },
    () => push.publicKey(),
  );

  app.post(
    pushPaths.subscriptions,
    {
      onRequest,
      preHandler: app.rateLimits.subscribePush,
      config: {
        audit: {
          action: 'push_subscribe',
          resourceType: 'push_subscription',
          resourceId: 'answer',
        },
      },
      schema: {
        tags,
        security,
        summary:
          'Turn notifications on for this session’s device: the body is the browser’s PushSubscription JSON',
        body: pushSubscriptionRequest,
        response: { 201: pushSubscription, ...problems(400, 401, 429) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await push.subscribe(request.user, request.body)),
  );

  app.delete(
    pushPaths.subscription(':id'),
    {
      onRequest,
      config: {
        audit: {
          action: 'push_unsubscribe',
          resourceType: 'push_subscription',
          resourceId: { param: 'id' },
        },
      },
      schema: {
        tags,
        security,
        summary: 'Turn notifications off for one of the member’s devices',
        params: z.object({ id: z.uuid('This is not a subscription id.') }),
        response: { 204: noContent, ...problems(400, 401, 404) },
      },
    },
    async (request, reply) => {
      await push.unsubscribe(request.user, request.params.id);
      return reply.code(204).send(null);
    },
  );

  return Promise.resolve();
};

import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  delegateList,
  delegationIdParams,
  delegationInvited,
  delegationPaths,
  inviteDelegateRequest,
  receivedDelegation,
  receivedDelegationList,
} from '@dental/contracts';
import { security } from '#api/lib/openapi-security';
import { problems } from '#api/lib/problem-responses';
import type { DelegationService } from './delegation.service';

export interface DelegationRoutesOptions {
  delegations: DelegationService;
}

const tags = ['delegation'];
const grantList = { none: 'names and states of grants, no health data' };
const writtenByService = {
  none: 'the delegation service writes the row, in the owner’s chain (docs/decisions/proxy-access.md)',
};
const noContent = z.null().describe('No content');
const one = `${delegationPaths.delegates}:id/`;

/** Proxy access (docs/decisions/proxy-access.md). None of these is delegable: a delegate never
 *  sees or changes the owner's own delegates. */
export const delegationRoutes: FastifyPluginAsyncZod<DelegationRoutesOptions> = (
  app,
  { delegations },
) => {
  const onRequest = app.authenticate;

  app.post(
    delegationPaths.delegates,
    {
      onRequest,
      preHandler: app.rateLimits.inviteDelegate,
      config: { audit: writtenByService },
      schema: {
        tags,
        security,
        summary: 'Invite someone by e-mail to view my health information (read-only)',
        body: inviteDelegateRequest,
        response: { 201: delegationInvited, ...problems(400, 401, 404, 409, 422, 429) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await delegations.invite(request.user.id, request.body.email)),
  );

  app.get(
    delegationPaths.delegates,
    {
      onRequest,
      config: { audit: grantList },
      schema: {
        tags,
        security,
        summary: 'The people I invited to view my record, invited or active',
        response: { 200: delegateList, ...problems(401, 404) },
      },
    },
    (request) => delegations.delegates(request.user.id),
  );

  app.get(
    delegationPaths.received,
    {
      onRequest,
      config: { audit: grantList },
      schema: {
        tags,
        security,
        summary: 'The records others let me view, and invitations to my account e-mail',
        response: { 200: receivedDelegationList, ...problems(401, 404) },
      },
    },
    (request) => delegations.received(request.user.id),
  );

  app.post(
    `${one}accept/`,
    {
      onRequest,
      config: { audit: writtenByService },
      schema: {
        tags,
        security,
        summary: 'Accept an invitation made to my account e-mail',
        params: delegationIdParams,
        response: { 200: receivedDelegation, ...problems(400, 401, 404) },
      },
    },
    (request) => delegations.accept(request.user.id, request.params.id),
  );

  app.delete(
    one,
    {
      onRequest,
      config: { audit: writtenByService },
      schema: {
        tags,
        security,
        summary: 'Revoke a delegate (owner), or stop viewing a shared record (delegate)',
        params: delegationIdParams,
        response: { 204: noContent, ...problems(400, 401, 404) },
      },
    },
    async (request, reply) => {
      await delegations.remove(request.user.id, request.params.id);
      return reply.code(204).send(null);
    },
  );

  return Promise.resolve();
};

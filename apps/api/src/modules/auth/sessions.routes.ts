import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  changePasswordRequest,
  deviceSessionList,
  messageResponse,
  sessionPaths,
} from '@dental/contracts';
import { security } from '#api/lib/openapi-security';
import { problems } from '#api/lib/problem-responses';
import type { PasswordChangeService } from './password-change.service';
import type { SessionService } from './session.service';

export interface SessionRoutesOptions {
  sessions: SessionService;
  passwordChanges: PasswordChangeService;
}

const noContent = z.null().describe('No content');
const tags = ['account'];

/** Signed-in devices and the password change (docs/decisions/signed-in-devices.md). */
export const sessionRoutes: FastifyPluginAsyncZod<SessionRoutesOptions> = (
  app,
  { sessions, passwordChanges },
) => {
  const onRequest = app.authenticate;

  app.get(
    sessionPaths.sessions,
    {
      onRequest,
      config: {
        audit: { none: 'the device list, no health data (docs/decisions/signed-in-devices.md)' },
      },
      schema: {
        tags,
        summary: 'The member’s live sessions (signed-in devices), most recently used first',
        security,
        response: { 200: deviceSessionList, ...problems(401) },
      },
    },
    (request) => sessions.listSessions(request.user),
  );

  app.delete(
    sessionPaths.sessions,
    {
      onRequest,
      config: { audit: { action: 'sign_out_other_devices', resourceType: 'session' } },
      schema: {
        tags,
        summary: 'Sign out everywhere else: end every session but the caller’s',
        security,
        response: { 204: noContent, ...problems(401) },
      },
    },
    async (request, reply) => {
      await sessions.endOtherSessions(request.user);
      return reply.code(204).send(null);
    },
  );

  app.delete(
    sessionPaths.session(':id'),
    {
      onRequest,
      config: {
        audit: { action: 'sign_out_device', resourceType: 'session', resourceId: { param: 'id' } },
      },
      schema: {
        tags,
        summary: 'End one session at once: its refresh and access tokens are refused',
        security,
        params: z.object({ id: z.uuid('This is not a session id.') }),
        response: { 204: noContent, ...problems(400, 401, 404) },
      },
    },
    async (request, reply) => {
      await sessions.endDeviceSession(request.user, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    sessionPaths.changePassword,
    {
      onRequest,
      // A wrong current password counts like a failed password re-check.
      preHandler: app.rateLimits.reauthenticate,
      config: { audit: { action: 'password_change', resourceType: 'account' } },
      schema: {
        tags,
        summary:
          'Change the password: current_password, password, confirm_password. Other sessions end; the member is e-mailed',
        security,
        body: changePasswordRequest,
        response: { 200: messageResponse, ...problems(400, 401, 429) },
      },
    },
    (request) => passwordChanges.changePassword(request.user, request.body),
  );

  return Promise.resolve();
};

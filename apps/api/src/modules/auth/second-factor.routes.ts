import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  confirmTotpRequest,
  loginWithCodeRequest,
  recoveryCodes,
  removeTotpRequest,
  secondFactorPaths,
  secondFactorStatus,
  startTotpRequest,
  tokenPair,
  totpEnrolment,
} from '@dental/contracts';
import { security } from '#api/lib/openapi-security';
import { problems } from '#api/lib/problem-responses';
import { byMfaToken } from '../audit/audit-declarations';
import { signInContext } from './auth.routes';
import type { SecondFactorService } from './second-factor.service';
import type { SessionService } from './session.service';

export interface SecondFactorRoutesOptions {
  sessions: SessionService;
  secondFactor: SecondFactorService;
}

const noContent = z.null().describe('No content');
const tags = ['account'];

/** The second factor (docs/decisions/second-factor.md): enrol, confirm and remove an
 *  authenticator app, and the second step of a login. */
export const secondFactorRoutes: FastifyPluginAsyncZod<SecondFactorRoutesOptions> = (
  app,
  { sessions, secondFactor },
) => {
  const authenticated = { onRequest: app.authenticate };

  app.get(
    secondFactorPaths.status,
    {
      ...authenticated,
      config: { audit: { none: 'whether the second factor is on, no health data' } },
      schema: {
        tags,
        summary: 'Whether an authenticator app is on, and how many recovery codes are left',
        security,
        response: { 200: secondFactorStatus, ...problems(401) },
      },
    },
    (request) => secondFactor.status(request.user.id),
  );

  app.post(
    secondFactorPaths.totp,
    {
      ...authenticated,
      // The body is a password: guesses are limited like password re-checks.
      preHandler: app.rateLimits.reauthenticate,
      config: {
        audit: { none: 'a secret that is off until confirmed; turning it on is recorded' },
      },
      schema: {
        tags,
        summary: 'Start setting up an authenticator app: a new secret, on after its first code',
        security,
        body: startTotpRequest,
        response: { 201: totpEnrolment, ...problems(400, 401, 409, 429) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await secondFactor.startTotp(request.user.id, request.body.password)),
  );

  app.post(
    secondFactorPaths.confirmTotp,
    {
      ...authenticated,
      config: { audit: { action: 'second_factor_enable', resourceType: 'account' } },
      schema: {
        tags,
        summary: 'Turn the authenticator app on with its first code; answers ten recovery codes',
        security,
        body: confirmTotpRequest,
        response: { 200: recoveryCodes, ...problems(400, 401, 409, 429) },
      },
    },
    (request) => secondFactor.confirmTotp(request.user.id, request.body.code),
  );

  app.delete(
    secondFactorPaths.totp,
    {
      ...authenticated,
      preHandler: app.requireRecentSignIn,
      config: { audit: { action: 'second_factor_disable', resourceType: 'account' } },
      schema: {
        tags,
        summary:
          'Turn the authenticator app off with the password and a code. Needs a sign-in or a re-check in the last 10 minutes (else 403)',
        security,
        body: removeTotpRequest,
        response: { 204: noContent, ...problems(400, 401, 403, 409, 429) },
      },
    },
    async (request, reply) => {
      await secondFactor.removeTotp(request.user.id, request.body.password, request.body.code);
      return reply.code(204).send(null);
    },
  );

  app.post(
    secondFactorPaths.loginWithCode,
    {
      preHandler: app.rateLimits.loginWithCode,
      config: { audit: { action: 'sign_in', resourceType: 'session', subject: byMfaToken } },
      schema: {
        tags,
        summary:
          'The second step of a login: the mfa_token and an authenticator or recovery code; answers an access and a refresh token',
        body: loginWithCodeRequest,
        response: { 200: tokenPair, ...problems(400, 401, 403, 429) },
      },
    },
    (request) =>
      sessions.loginWithCode(request.body.mfa_token, request.body.code, signInContext(request)),
  );

  return Promise.resolve();
};

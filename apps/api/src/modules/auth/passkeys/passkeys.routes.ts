import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  addPasskeyRequest,
  passkey,
  passkeyList,
  passkeyPaths,
  passkeySecondFactorOptionsRequest,
  passkeySecondFactorRequest,
  passkeySignInRequest,
  tokenPair,
  webAuthnOptions,
} from '@dental/contracts';
import { security } from '#api/lib/openapi-security';
import { problems } from '#api/lib/problem-responses';
import { byMfaToken, bySessionStarted } from '../../audit/audit-declarations';
import { signInContext } from '../auth.routes';
import type { PasskeyService } from './passkeys.service';

export interface PasskeyRoutesOptions {
  passkeys: PasskeyService;
}

const tags = ['account'];

/** Passkeys of the Profile and passkey sign-in (docs/product/accounts.md#passkeys). */
export const passkeyRoutes: FastifyPluginAsyncZod<PasskeyRoutesOptions> = (app, { passkeys }) => {
  const authenticated = { onRequest: app.authenticate };
  // Adding or removing a way to sign in is a sensitive change: it needs a recent sign-in.
  const recentlyAuthenticated = { ...authenticated, preHandler: app.requireRecentSignIn };

  app.get(
    passkeyPaths.list,
    {
      ...authenticated,
      config: { audit: { none: 'names and dates of passkeys, no health data' } },
      schema: {
        tags,
        summary: 'The member’s passkeys, oldest first',
        security,
        response: { 200: passkeyList, ...problems(401) },
      },
    },
    (request) => passkeys.list(request.user.id),
  );

  app.post(
    passkeyPaths.registrationOptions,
    {
      ...recentlyAuthenticated,
      config: { audit: { none: 'a challenge; adding the passkey is recorded' } },
      schema: {
        tags,
        summary: 'WebAuthn options to create a passkey (the challenge is valid 5 minutes, once)',
        security,
        response: { 200: webAuthnOptions, ...problems(401, 403) },
      },
    },
    (request) => passkeys.registrationOptions(request.user.id),
  );

  app.post(
    passkeyPaths.list,
    {
      ...recentlyAuthenticated,
      config: { audit: { action: 'passkey_add', resourceType: 'passkey', resourceId: 'answer' } },
      schema: {
        tags,
        summary: 'Register the passkey the browser created, under a name',
        security,
        body: addPasskeyRequest,
        response: { 201: passkey, ...problems(400, 401, 403, 409) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await passkeys.add(request.user.id, request.body)),
  );

  app.delete(
    `${passkeyPaths.list}:id/`,
    {
      ...recentlyAuthenticated,
      config: {
        audit: { action: 'passkey_remove', resourceType: 'passkey', resourceId: { param: 'id' } },
      },
      schema: {
        tags,
        summary: 'Remove one of the member’s passkeys',
        security,
        params: z.object({ id: z.uuid('This passkey was not found.') }),
        response: { 204: z.null().describe('No content'), ...problems(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await passkeys.remove(request.user.id, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    passkeyPaths.signInOptions,
    {
      preHandler: app.rateLimits.login,
      schema: {
        tags,
        summary: 'WebAuthn options for a usernameless passkey sign-in',
        response: { 200: webAuthnOptions, ...problems(429) },
      },
    },
    () => passkeys.signInOptions(),
  );

  app.post(
    passkeyPaths.signIn,
    {
      preHandler: app.rateLimits.login,
      config: { audit: { action: 'sign_in', resourceType: 'session', subject: bySessionStarted } },
      schema: {
        tags,
        summary: 'Sign in with a passkey; answers an access and a refresh token',
        body: passkeySignInRequest,
        response: { 200: tokenPair, ...problems(400, 401, 403, 429) },
      },
    },
    (request) => passkeys.signIn(request.body, signInContext(request)),
  );

  app.post(
    passkeyPaths.secondFactorOptions,
    {
      preHandler: app.rateLimits.login,
      schema: {
        tags,
        summary: 'WebAuthn options for the second step of a login, with the member’s passkeys',
        body: passkeySecondFactorOptionsRequest,
        response: { 200: webAuthnOptions, ...problems(400, 401, 429) },
      },
    },
    (request) => passkeys.secondFactorOptions(request.body.mfa_token),
  );

  app.post(
    passkeyPaths.secondFactor,
    {
      preHandler: app.rateLimits.login,
      config: { audit: { action: 'sign_in', resourceType: 'session', subject: byMfaToken } },
      schema: {
        tags,
        summary: 'Answer the second step of a login with a passkey; answers the token pair',
        body: passkeySecondFactorRequest,
        response: { 200: tokenPair, ...problems(400, 401, 403, 429) },
      },
    },
    (request) => passkeys.signInAsSecondFactor(request.body, signInContext(request)),
  );

  return Promise.resolve();
};

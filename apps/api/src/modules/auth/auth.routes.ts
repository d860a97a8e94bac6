import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  account,
  accountPaths,
  anyLoginRequest,
  changeEmailRequest,
  checkResetKeyRequest,
  confirmEmailRequest,
  forgetPasswordRequest,
  loginResponse,
  messageResponse,
  reauthenticateRequest,
  refreshRequest,
  registerRequest,
  registerResponse,
  socialBindRequest,
  socialProvider,
  tokenHandoff,
  tokenPair,
  updatePasswordRequest,
} from '@dental/contracts';
import { security } from '#api/lib/openapi-security';
import { problems } from '#api/lib/problem-responses';
import {
  bodyField,
  byEmail,
  byRefreshToken,
  bySessionStarted,
  subjectOf,
  type AuditSubjectLookup,
} from '../audit/audit-declarations';
import type { EmailConfirmationService } from './email-confirmation.service';
import type { PasswordResetService } from './password-reset.service';
import type { RegistrationService } from './registration.service';
import type { SessionService } from './session.service';
import type { SignInContext } from './sign-in';
import type { SocialAccountService } from './social-account.service';

export interface AuthRoutesOptions {
  registrations: RegistrationService;
  sessions: SessionService;
  passwordResets: PasswordResetService;
  socialAccounts: SocialAccountService;
  emailConfirmations: EmailConfirmationService;
}

/** The device a sign-in comes from, as the member will see it in their list of sessions. */
export function signInContext(request: FastifyRequest): SignInContext {
  return { userAgent: request.headers['user-agent'] ?? null, ip: request.ip };
}

const noContent = z.null().describe('No content');
const tags = ['account'];

/** Sign-up's row is the new member's own. */
const newMember: AuditSubjectLookup = (_request, _lookups, answer) =>
  Promise.resolve(subjectOf(typeof answer?.id === 'string' ? answer.id : null, true));

/** A password sign-in names its member by e-mail, a social one by the session it started. */
const signingIn: AuditSubjectLookup = async (request, lookups, answer, ok) => {
  // A right password that asks for the second step is not a sign-in yet: the second step
  // writes the row (docs/decisions/second-factor.md).
  if (answer?.mfa_required === true) return null;
  const loginType = bodyField(request, 'login_type');
  if (loginType !== undefined && loginType !== 'native') {
    return bySessionStarted(request, lookups, answer, ok);
  }
  const found = await byEmail((succeeded) => succeeded)(request, lookups, answer, ok);
  // Failed attempts on an unknown e-mail join the chain of no member.
  return found ?? (ok ? null : { memberId: null, actor: 'anonymous' });
};

/** Anyone may ask for a reset link to any address: never the member's own act. */
const resetRequester = byEmail(() => false);

/** The member whose reset key the body carries. */
const byResetKey: AuditSubjectLookup = async (request, lookups, _answer, ok) => {
  const key = bodyField(request, 'key');
  return subjectOf(key === undefined ? null : await lookups.memberByResetKey(key), ok);
};

/** Sign-up, sign-in and the password reset of docs/product/accounts.md#account-calls, token
 *  refresh, the hand-off to a new tab and logout (docs/decisions/refresh-token-rotation.md,
 *  docs/decisions/session-handoff.md), the password re-check
 *  (docs/decisions/session-timeouts.md) and linked social accounts
 *  (docs/decisions/social-sign-in.md). */
export const authRoutes: FastifyPluginAsyncZod<AuthRoutesOptions> = (
  app,
  { registrations, sessions, passwordResets, socialAccounts, emailConfirmations },
) => {
  const authenticated = { onRequest: app.authenticate };

  app.post(
    accountPaths.register,
    {
      preHandler: app.rateLimits.register,
      config: { audit: { action: 'sign_up', resourceType: 'account', subject: newMember } },
      schema: {
        tags,
        summary: 'Sign up as a new Silver member',
        body: registerRequest,
        response: { 201: registerResponse, ...problems(400, 409, 429) },
      },
    },
    async (request, reply) => reply.code(201).send(await registrations.register(request.body)),
  );

  app.post(
    accountPaths.login,
    {
      preHandler: app.rateLimits.login,
      config: { audit: { action: 'sign_in', resourceType: 'session', subject: signingIn } },
      schema: {
        tags,
        summary:
          'Log in with a password, or a Google, Apple or Facebook token; answers an access and a refresh token',
        body: anyLoginRequest,
        response: { 200: loginResponse, ...problems(400, 401, 403, 409, 422, 429, 503) },
      },
    },
    (request) =>
      request.body.login_type === 'native'
        ? sessions.login(request.body, signInContext(request))
        : socialAccounts.signIn(request.body, signInContext(request)),
  );

  app.post(
    accountPaths.refresh,
    {
      config: { audit: { action: 'refresh', resourceType: 'session', subject: byRefreshToken } },
      schema: {
        tags,
        summary: 'Exchange a refresh token for a new pair (the old one is used up)',
        body: refreshRequest,
        response: { 200: tokenPair, ...problems(400, 401) },
      },
    },
    (request) => sessions.refresh(request.body.refresh),
  );

  app.post(
    accountPaths.handoff,
    {
      config: {
        audit: { action: 'session_handoff', resourceType: 'session', subject: byRefreshToken },
      },
      schema: {
        tags,
        summary:
          'Refresh, and answer a second pair of the same session for a new tab of the same browser',
        body: refreshRequest,
        response: { 200: tokenHandoff, ...problems(400, 401) },
      },
    },
    (request) => sessions.handOff(request.body.refresh),
  );

  app.post(
    accountPaths.logout,
    {
      config: { audit: { action: 'sign_out', resourceType: 'session', subject: byRefreshToken } },
      schema: {
        tags,
        summary: 'End the session the refresh token belongs to',
        body: refreshRequest,
        response: { 204: noContent, ...problems(400) },
      },
    },
    async (request, reply) => {
      await sessions.logout(request.body.refresh);
      return reply.code(204).send(null);
    },
  );

  app.post(
    accountPaths.reauthenticate,
    {
      ...authenticated,
      preHandler: app.rateLimits.reauthenticate,
      config: { audit: { action: 'reauthenticate', resourceType: 'session' } },
      schema: {
        tags,
        summary:
          'Re-check the password, or a second-factor code: the session counts as signed in just now',
        security,
        body: reauthenticateRequest,
        response: { 204: noContent, ...problems(400, 401, 429) },
      },
    },
    async (request, reply) => {
      await sessions.reauthenticate(request.user, request.body);
      return reply.code(204).send(null);
    },
  );

  app.post(
    accountPaths.forgetPassword,
    {
      preHandler: app.rateLimits.forgetPassword,
      config: {
        audit: {
          action: 'password_reset_request',
          resourceType: 'account',
          subject: resetRequester,
        },
      },
      schema: {
        tags,
        summary: 'E-mail a password reset link (same answer for unknown addresses)',
        body: forgetPasswordRequest,
        response: { 200: messageResponse, ...problems(400, 429) },
      },
    },
    (request) => passwordResets.requestReset(request.body.email),
  );

  app.post(
    accountPaths.updatePassword,
    {
      config: { audit: { action: 'password_reset', resourceType: 'account', subject: byResetKey } },
      schema: {
        tags,
        summary: 'Set a new password with the key from the reset link',
        body: updatePasswordRequest,
        response: { 200: messageResponse, ...problems(400) },
      },
    },
    (request) => passwordResets.updatePassword(request.body),
  );

  app.post(
    accountPaths.checkResetKey,
    {
      preHandler: app.rateLimits.checkResetKey,
      schema: {
        tags,
        summary: 'Whether a reset link can still set a password; uses nothing up',
        body: checkResetKeyRequest,
        response: { 204: noContent, ...problems(400, 429) },
      },
    },
    async (request, reply) => {
      await passwordResets.checkKey(request.body.key);
      return reply.code(204).send(null);
    },
  );

  app.post(
    accountPaths.socialMediaAccount,
    {
      ...authenticated,
      config: { audit: { action: 'social_link', resourceType: 'social_account' } },
      schema: {
        tags,
        summary: 'Link a Google, Apple or Facebook account to the profile',
        security,
        body: socialBindRequest,
        response: { 200: account, ...problems(400, 401, 409, 422, 503) },
      },
    },
    (request) => socialAccounts.link(request.user.id, request.body),
  );

  app.delete(
    `${accountPaths.socialMediaAccount}:provider/:id/`,
    {
      // A way into the account is taken away: only right after a sign-in or a re-check.
      ...authenticated,
      preHandler: app.requireRecentSignIn,
      config: {
        audit: {
          action: 'social_unlink',
          resourceType: 'social_account',
          resourceId: { param: 'id' },
        },
      },
      schema: {
        tags,
        summary:
          'Unlink a social account (needs a recent sign-in); refused (409) when it is the last way to sign in',
        security,
        params: z.object({ provider: socialProvider, id: z.string().min(1).max(256) }),
        response: { 200: account, ...problems(400, 401, 403, 404, 409) },
      },
    },
    (request) => socialAccounts.unlink(request.user.id, request.params.provider, request.params.id),
  );

  // Confirming the address (docs/decisions/email-confirmation.md).
  app.post(
    accountPaths.emailConfirmation,
    {
      ...authenticated,
      preHandler: app.rateLimits.sendEmailConfirmation,
      config: { audit: { none: 'account data, not health data' } },
      schema: {
        tags,
        summary:
          'Send the confirmation link again: to the new address asked for, else to the unconfirmed one',
        security,
        response: { 204: noContent, ...problems(400, 401, 429) },
      },
    },
    async (request, reply) => {
      await emailConfirmations.resend(request.user.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    accountPaths.confirmEmail,
    {
      preHandler: app.rateLimits.confirmEmail,
      // The row names the member only once the key has named them: the service writes it.
      config: { audit: { none: 'EmailConfirmationService writes the row after its commit' } },
      schema: {
        tags,
        summary:
          'Confirm an e-mail address with the key of its link; the address becomes the account’s',
        body: confirmEmailRequest,
        response: { 200: messageResponse, ...problems(400, 409, 429) },
      },
    },
    (request) => emailConfirmations.confirm(request.body.key),
  );

  app.put(
    accountPaths.email,
    {
      ...authenticated,
      preHandler: [app.requireRecentSignIn, app.rateLimits.sendEmailConfirmation],
      config: { audit: { action: 'email_change_request', resourceType: 'account' } },
      schema: {
        tags,
        summary:
          'Ask to change the e-mail address: a link goes to the new one, the old one is told, and the account keeps the old one until the link is opened. Needs a recent sign-in (else 403)',
        security,
        body: changeEmailRequest,
        response: { 200: account, ...problems(400, 401, 403, 409, 429) },
      },
    },
    (request) => emailConfirmations.requestChange(request.user.id, request.body.email),
  );

  return Promise.resolve();
};

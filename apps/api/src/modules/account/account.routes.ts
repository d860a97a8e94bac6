import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { account, accountPaths, updateAccountRequest } from '@dental/contracts';
import { security } from '#api/lib/openapi-security';
import { problems } from '#api/lib/problem-responses';
import type { AccountService } from './account.service';

export interface AccountRoutesOptions {
  accounts: AccountService;
}

const noContent = z.null().describe('No content');
const tags = ['account'];
/** Reading the profile and accepting the disclaimer are account events, not reads of health data
 *  (docs/decisions/upload-disclaimer.md). */
const accountData = { none: 'account data, not health data' };

/** The member's profile and its deactivation (docs/product/accounts.md#account-calls); the
 *  deactivation needs a recent sign-in or password re-check (docs/decisions/session-timeouts.md). */
export const accountRoutes: FastifyPluginAsyncZod<AccountRoutesOptions> = (app, { accounts }) => {
  const authenticated = { onRequest: app.authenticate };

  app.get(
    accountPaths.account,
    {
      ...authenticated,
      config: { audit: accountData },
      schema: {
        tags,
        summary: 'The logged-in member’s account',
        security,
        response: { 200: account, ...problems(401) },
      },
    },
    (request) => accounts.get(request.user.id),
  );

  app.put(
    accountPaths.account,
    {
      ...authenticated,
      // The health record details (birth date, sex, legal name) go into another system's record
      // through the export, so each change is recorded; like the e-mail and phone they identify
      // the member, and the GET stays unrecorded: every screen's layout reads it.
      config: { audit: { action: 'change', resourceType: 'account', resourceId: 'answer' } },
      schema: {
        tags,
        summary:
          'Change name, phone and the health record details (given and family name, date of birth, sex); every other field sent is ignored',
        security,
        body: updateAccountRequest,
        response: { 200: account, ...problems(400, 401) },
      },
    },
    (request) => accounts.update(request.user.id, request.body),
  );

  app.put(
    accountPaths.uploadDisclaimer,
    {
      ...authenticated,
      config: { audit: accountData },
      schema: {
        tags,
        summary:
          'Accept the disclaimer shown before uploads, once per member; the first time is kept',
        security,
        response: { 200: account, ...problems(401) },
      },
    },
    (request) => accounts.acceptUploadDisclaimer(request.user.id),
  );

  app.delete(
    accountPaths.account,
    {
      ...authenticated,
      preHandler: app.requireRecentSignIn,
      config: { audit: { action: 'deactivate', resourceType: 'account' } },
      schema: {
        tags,
        summary:
          'Deactivate the account: access ends at once, data is kept. Needs a sign-in or a password re-check in the last 10 minutes (else 403)',
        security,
        response: { 204: noContent, ...problems(401, 403) },
      },
    },
    async (request, reply) => {
      await accounts.deactivate(request.user.id);
      return reply.code(204).send(null);
    },
  );

  return Promise.resolve();
};

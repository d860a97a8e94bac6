import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import {
  newShareLinkRequest,
  shareLinkCreated,
  shareLinkIdParams,
  shareLinkList,
  shareLinkRoutePatterns,
  sharePasscodeHeader,
  sharePasscodeMaxLength,
  sharedItems,
  shareTokenMaxLength,
  shareTokenParams,
} from '@dental/contracts';
import { security } from '#api/lib/openapi-security';
import { problems } from '#api/lib/problem-responses';
import { linkedFileHeaders } from '#api/lib/signed-links';
import {
  scopedFileOpener,
  shareLinkActor,
  type AuditSubjectLookup,
} from '../audit/audit-declarations';
import type { ShareLinkService } from './share-links.service';
import { sharedFilesPath, type SharedFiles } from './shared-files';

export interface ShareLinkRoutesOptions {
  shareLinks: ShareLinkService;
  sharedFiles: SharedFiles;
}

const tags = ['share-link'];
const noContent = z.null().describe('No content');

/** The passcode header, when sent; one far longer than any passcode is not hashed, only refused. */
function passcodeOf(request: FastifyRequest): string | undefined {
  const value = request.headers[sharePasscodeHeader];
  if (typeof value !== 'string') return undefined;
  return value.slice(0, sharePasscodeMaxLength + 1);
}

/** Each opening of a link, a failed one (wrong passcode, revoked, expired) too, joins the owner's
 *  chain with the link as its actor; a token that names no link names no one. */
const openerOfLink: AuditSubjectLookup = async (request, lookups) => {
  const token = (request.params as Record<string, unknown>).token;
  const link =
    typeof token === 'string' && token.length <= shareTokenMaxLength
      ? await lookups.shareLinkByToken(token)
      : null;
  return link === null
    ? null
    : {
        memberId: link.memberId,
        actor: shareLinkActor(link.linkId),
        resourceType: 'share_link',
        resourceId: link.linkId,
      };
};

/** Share links for a dentist (docs/product/sharing.md). */
export const shareLinkRoutes: FastifyPluginAsyncZod<ShareLinkRoutesOptions> = (
  app,
  { shareLinks, sharedFiles },
) => {
  const authenticated = { onRequest: app.authenticate };

  app.post(
    shareLinkRoutePatterns.list,
    {
      ...authenticated,
      config: { audit: { action: 'create', resourceType: 'share_link', resourceId: 'answer' } },
      schema: {
        tags,
        security,
        summary: 'A link that shows the chosen photos and records to someone without an account',
        body: newShareLinkRequest,
        response: { 201: shareLinkCreated, ...problems(400, 401, 404) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await shareLinks.create(request.user.id, request.body)),
  );

  app.get(
    shareLinkRoutePatterns.list,
    {
      ...authenticated,
      config: {
        audit: { none: 'labels and counts, no health data (docs/decisions/share-links.md)' },
      },
      schema: {
        tags,
        security,
        summary: 'The member’s links, newest first, with how often and when each was opened',
        response: { 200: shareLinkList, ...problems(401) },
      },
    },
    (request) => shareLinks.list(request.user.id),
  );

  app.delete(
    shareLinkRoutePatterns.one,
    {
      ...authenticated,
      config: {
        audit: { action: 'delete', resourceType: 'share_link', resourceId: { param: 'id' } },
      },
      schema: {
        tags,
        security,
        summary: 'Revoke a link: it answers 404 from now on',
        params: shareLinkIdParams,
        response: { 204: noContent, ...problems(400, 401, 404) },
      },
    },
    async (request, reply) => {
      await shareLinks.revoke(request.user.id, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    shareLinkRoutePatterns.shared,
    {
      // Every answer, errors included, stays out of search engines.
      onRequest: async (_request, reply) => {
        void reply.header('x-robots-tag', 'noindex, nofollow');
      },
      preHandler: app.rateLimits.openSharedLink,
      config: { audit: { action: 'read', resourceType: 'share_link', subject: openerOfLink } },
      schema: {
        tags,
        summary:
          'What a share link shows, without an account; the token in the URL is its credential, ' +
          `a passcode comes in ${sharePasscodeHeader}`,
        params: shareTokenParams,
        response: { 200: sharedItems, ...problems(400, 401, 404, 429) },
      },
    },
    (request) => shareLinks.open(request.params.token, passcodeOf(request)),
  );

  app.get(
    `${sharedFilesPath}*`,
    {
      onRequest: async (_request, reply) => {
        void reply.header('x-robots-tag', 'noindex, nofollow');
      },
      // Each file a recipient fetches joins the owner's chain with the link as actor.
      config: {
        audit: {
          action: 'download',
          resourceType: 'oral_photo',
          subject: scopedFileOpener(sharedFiles, shareLinkActor),
        },
      },
      schema: {
        tags,
        summary:
          'A shared photo, file or report through the signed link a share answered; a DICOM original ' +
          'without names and IDs',
        params: z.object({ '*': z.string() }),
        querystring: z.record(z.string(), z.union([z.string(), z.array(z.string())])),
        response: { 200: z.unknown().describe('The file’s bytes'), ...problems(403, 404, 500) },
      },
    },
    async (request, reply) => {
      const { file, size, body } = await sharedFiles.open(request.params['*'], request.query);
      return reply.headers(linkedFileHeaders(file, size)).send(body);
    },
  );

  return Promise.resolve();
};

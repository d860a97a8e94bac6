import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { BlobStore } from '#api/adapters/blob-store/blob-store';
import { NotFound } from '#api/domain-errors';
import { problems } from '#api/lib/problem-responses';
import { filesPath, linkedFileHeaders, type SignedLinks } from '#api/lib/signed-links';

export interface FilesRoutesOptions {
  blobs: BlobStore;
  links: SignedLinks;
  /** Whether the file's owner is still an active member: a deactivated owner's links stop. */
  ownerIsActive: (key: string) => Promise<boolean>;
  /** Told of each file its owner's link serves (a report's first download ends Home's notice). */
  downloaded: (key: string) => Promise<void>;
}

export const fileGoneMessage = 'This file no longer exists.';

/**
 * GET /api/files/<key>?…&sig=…: a stored file through a signed link, without a bearer header, so
 * that an `<img>` or a download can use it (docs/decisions/signed-file-links.md).
 */
export const filesRoutes: FastifyPluginAsyncZod<FilesRoutesOptions> = (
  app,
  { blobs, links, ownerIsActive, downloaded },
) => {
  app.get(
    `${filesPath}*`,
    {
      // A download joins the owner's chain with the link as its actor; the row that refers to the
      // file names the owner and the resource (docs/decisions/audit-trail.md).
      config: {
        audit: {
          action: 'download',
          resourceType: 'oral_photo',
          subject: async (request, lookups) => {
            const key = (request.params as Record<string, unknown>)['*'];
            const file = typeof key === 'string' ? await lookups.fileByKey(key) : undefined;
            return file === undefined ? null : { ...file, actor: 'signed link' };
          },
        },
      },
      schema: {
        tags: ['files'],
        summary: 'A stored photo or medical file through a short-lived signed link',
        params: z.object({ '*': z.string() }),
        querystring: z.record(z.string(), z.union([z.string(), z.array(z.string())])),
        response: { 200: z.unknown().describe('The file’s bytes'), ...problems(403, 404, 500) },
      },
    },
    async (request, reply) => {
      const file = links.verify(request.params['*'], request.query);
      // A signed link outlives nothing: once its owner is deactivated it is as gone as the file.
      if (!(await ownerIsActive(file.key))) throw new NotFound(fileGoneMessage);
      const blob = await blobs.get(file.key);
      if (blob === null) throw new NotFound(fileGoneMessage);
      await downloaded(file.key);
      return reply.headers(linkedFileHeaders(file, blob.size)).send(blob.stream);
    },
  );
  return Promise.resolve();
};

import { z } from 'zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { problem } from '@dental/contracts';
import type { ContentImageRow } from '#api/db/schema';
import { NotFound } from '#api/domain-errors';
import type { ContentRepository } from './content.repository';
import { contentImagesPath } from './content-paths';
import { entityTag, ifNoneMatchHits } from './http-cache';

export const imageNotFoundMessage = 'This picture does not exist.';

/** The address holds the hash of the bytes, so the answer never changes under it. */
const immutable = 'public, max-age=31536000, immutable';

/** An SVG opened on its own is a document: no scripts, no requests, no plugins, whatever it holds. */
const svgPolicy = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

function sendImage(request: FastifyRequest, reply: FastifyReply, image: ContentImageRow) {
  const tag = entityTag(image.sha256);
  void reply
    .header('etag', tag)
    .header('cache-control', immutable)
    .header('content-security-policy', svgPolicy)
    .header('x-content-type-options', 'nosniff');
  if (ifNoneMatchHits(request.headers['if-none-match'], tag)) return reply.code(304).send();
  return reply.type(image.mediaType).send(image.body);
}

export interface ContentRoutesOptions {
  contentRepository: ContentRepository;
}

/** Cover pictures of knowledge and supplier pages; public, like the pages' markdown
 *  (docs/product/knowledge.md#knowledge-and-supplier-calls). */
export const contentRoutes: FastifyPluginAsyncZod<ContentRoutesOptions> = (
  app,
  { contentRepository },
) => {
  app.get(
    `${contentImagesPath}:file`,
    {
      schema: {
        tags: ['content'],
        summary: 'A cover picture, by the SHA-256 of its bytes',
        params: z.object({
          file: z.string().regex(/^[0-9a-f]{64}\.svg$/, 'Not a picture address.'),
        }),
        response: { 400: problem, 404: problem },
      },
    },
    async (request, reply) => {
      const image = await contentRepository.findImage(request.params.file.slice(0, 64));
      if (image === undefined) throw new NotFound(imageNotFoundMessage);
      return sendImage(request, reply, image);
    },
  );
  return Promise.resolve();
};

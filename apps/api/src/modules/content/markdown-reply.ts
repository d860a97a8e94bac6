import type { FastifyReply, FastifyRequest } from 'fastify';
import { markdownContentType } from '@dental/contracts';
import { entityTag, ifNoneMatchHits } from './http-cache';

export interface MarkdownDocument {
  markdown: string;
  sha256: string;
}

/**
 * A markdown document with an ETag: public content, revalidated on each use so that an edit
 * shows after the next start, answered 304 when the browser already has it.
 */
export function sendMarkdown(
  request: FastifyRequest,
  reply: FastifyReply,
  document: MarkdownDocument,
): FastifyReply {
  const tag = entityTag(document.sha256);
  void reply.header('etag', tag).header('cache-control', 'public, no-cache');
  if (ifNoneMatchHits(request.headers['if-none-match'], tag)) return reply.code(304).send();
  return reply.type(markdownContentType).send(document.markdown);
}

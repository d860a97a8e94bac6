import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PageRequest } from '@dental/contracts';

export interface Page<T> {
  items: T[];
  /** Whether rows remain after this page. */
  more: boolean;
}

/** Repositories fetch one row more than asked: its presence says that more remain. */
export const rowsToFetch = (page: PageRequest) => page.limit + 1;

export function pageOf<T>(rows: T[], page: PageRequest): Page<T> {
  return { items: rows.slice(0, page.limit), more: rows.length > page.limit };
}

/** The path of the page after this one: the same path and filters, `offset` moved past it. */
export function nextPagePath(request: FastifyRequest, asked: PageRequest): string {
  const url = new URL(request.url, 'http://next.invalid');
  url.searchParams.set('limit', String(asked.limit));
  url.searchParams.set('offset', String(asked.offset + asked.limit));
  return `${url.pathname}${url.search}`;
}

/**
 * Answers the page's array as the list always has, with `Link: <…>; rel="next"` (RFC 8288)
 * when more remain (nextPagePath).
 */
export function sendPage<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  page: Page<T>,
  asked: PageRequest,
): T[] {
  if (page.more) void reply.header('link', `<${nextPagePath(request, asked)}>; rel="next"`);
  return page.items;
}

import { registerRoute } from 'workbox-routing';
import { StaleWhileRevalidate } from 'workbox-strategies';

/** The one cache of API answers: the dental knowledge articles and their cover images, the same
 *  for every member. No other API answer (health data) is ever stored by the worker. */
export const knowledgeCacheName = 'dental-knowledge';

/** Where the API serves the content's images (apps/api/src/modules/content/content-paths.ts). */
const contentImages = '/api/content/images/';
const knowledge = /^\/api\/dental-knowledge\/(?:[^/?]+\/(?:markdown\/)?)?$/;

/** An article list, an article or its text (not a search: a member's search words are theirs),
 *  or an image of the content. */
export function isKnowledge(url: URL): boolean {
  if (url.origin !== self.location.origin) return false;
  if (url.pathname.startsWith(contentImages)) return true;
  return knowledge.test(url.pathname) && url.search === '';
}

/** Answers from the cache at once and renews it from the network behind. */
export function keepKnowledge(): void {
  registerRoute(
    ({ url, request }) => request.method === 'GET' && isKnowledge(url),
    new StaleWhileRevalidate({ cacheName: knowledgeCacheName }),
  );
}

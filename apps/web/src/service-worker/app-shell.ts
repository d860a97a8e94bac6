import {
  cleanupOutdatedCaches,
  createHandlerBoundToURL,
  precacheAndRoute,
  type PrecacheEntry,
} from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';

/** Addresses that are never the patient app's pages: the API, the clinic console (a page of its
 *  own, docs/decisions/clinic-console.md) and the built files. */
export const notAppPages = [/^\/api(?:\/|$)/, /^\/clinic(?:\/|$)/, /^\/static\//];

/**
 * Keeps the patient app's built files (the list the build injects) and answers every page of the
 * app with its shell, so that the app starts without a connection.
 */
export function keepAppShell(files: (string | PrecacheEntry)[]): void {
  precacheAndRoute(files);
  cleanupOutdatedCaches();
  registerRoute(
    new NavigationRoute(createHandlerBoundToURL('/index.html'), { denylist: notAppPages }),
  );
}

import { existsSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import { sharePagePrefix } from '@dental/contracts';
import { NotFound } from '../domain-errors';
import { notFoundMessage } from './errors';

/** Hashed build output (docs/product/general.md#script-chunks: chunks under /static/js/) never
 *  changes under one name. */
const immutable = 'public, max-age=31536000, immutable';

/** Crawlers keep out of share links' pages (for their recipient only) and of the API. */
const robotsTxt = ['User-agent: *', `Disallow: ${sharePagePrefix}`, 'Disallow: /api/', ''].join(
  '\n',
);

const isApiPath = (url: string) =>
  url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');

/** The clinic console is a page of its own (docs/decisions/clinic-console.md), so that a patient's
 *  screens load none of its code. */
const isClinicPath = (url: string) =>
  url === '/clinic' || url.startsWith('/clinic/') || url.startsWith('/clinic?');

/**
 * Serves the built web app from WEB_DIST: its files, and index.html for any other page a
 * browser asks for (clinic.html under /clinic), so that deep links reach the client-side router. Skipped when there is no
 * build (API tests, API-only runs).
 */
export const staticSpaPlugin = fp(
  async (app: FastifyInstance, { webDist }: { webDist: string }) => {
    // Served with or without a build: an API-only deployment is crawled too.
    app.get('/robots.txt', { schema: { hide: true } }, (_request, reply) =>
      reply
        .type('text/plain; charset=utf-8')
        .header('cache-control', 'public, max-age=86400')
        .send(robotsTxt),
    );
    if (!existsSync(path.join(webDist, 'index.html'))) {
      app.log.info({ webDist }, 'no web build found; serving the API only');
      return;
    }
    // Hashed files are looked up on each request, so a rebuild while running is served at once.
    await app.register(fastifyStatic, {
      root: path.join(webDist, 'static'),
      prefix: '/static/',
      decorateReply: false,
      // The build writes .br and .gz beside each text file (scripts/build.mjs); they are sent
      // as they are to a browser that accepts them.
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply) => {
        void reply.header('cache-control', immutable);
      },
    });
    // The few top-level files (index.html, favicon) keep their names; they must be revalidated.
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      globIgnore: ['static/**'],
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply) => {
        void reply.header('cache-control', 'no-cache');
      },
    });

    app.get('/*', { schema: { hide: true } }, (request, reply) => {
      const wantsPage = request.headers.accept?.includes('text/html') ?? false;
      if (isApiPath(request.url) || !wantsPage) throw new NotFound(notFoundMessage);
      // A share link's page is for its recipient only: never indexed
      // (docs/decisions/share-links.md). The page is the app's shell; its data is no-store.
      if (request.url.startsWith(sharePagePrefix)) {
        void reply.header('x-robots-tag', 'noindex, nofollow');
      }
      const page = isClinicPath(request.url) ? 'clinic.html' : 'index.html';
      return reply.header('cache-control', 'no-cache').sendFile(page);
    });
  },
  { name: 'static-spa' },
);

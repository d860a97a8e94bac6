import type { FastifyInstance, FastifyPluginAsync, RouteShorthandOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { buildTestApp } from '#api-test/build-test-app';

const plantedPath = '/api/planted/';

/** One more route beside the app's own, declared as `options` says. */
function planted(options: (app: FastifyInstance) => RouteShorthandOptions): FastifyPluginAsync {
  return (app) => {
    app.get(plantedPath, options(app), () => ({ planted: true }));
    return Promise.resolve();
  };
}

// Every route of the app is checked as it is registered: each test here starts the real app with
// its whole route table, plus one planted route.
describe('each route’s audit declaration', () => {
  it('is checked over the whole route table: the app as it is starts', async () => {
    const t = await buildTestApp();
    await t.close();
  });

  it('refuses to start with an authenticated route that declares no audit', async () => {
    await expect(
      buildTestApp({ routes: planted((app) => ({ onRequest: app.authenticate })) }),
    ).rejects.toThrow(
      `Authenticated routes that declare no audit (set config.audit to what the route records, ` +
        `or to { none: 'why' }): GET ${plantedPath}, HEAD ${plantedPath}`,
    );
  });

  it('starts when the route says it records nothing and why, and refuses an empty reason', async () => {
    const t = await buildTestApp({
      routes: planted((app) => ({
        onRequest: app.authenticate,
        config: { audit: { none: 'a test route' } },
      })),
    });
    await t.close();
    await expect(
      buildTestApp({
        routes: planted((app) => ({
          onRequest: app.authenticate,
          config: { audit: { none: ' ' } },
        })),
      }),
    ).rejects.toThrow(`GET ${plantedPath} records nothing but says not why`);
  });

  it('refuses a route that leaves its successes’ rows to another part without naming it', async () => {
    await expect(
      buildTestApp({
        routes: planted((app) => ({
          onRequest: app.authenticate,
          config: {
            audit: { action: 'read', resourceType: 'oral_photo', successRecordedBy: ' ' },
          },
        })),
      }),
    ).rejects.toThrow(
      `GET ${plantedPath} leaves its successes' rows to another part but says not which`,
    );
  });

  it('refuses a signed-in member’s row on a route without a bearer token', async () => {
    await expect(
      buildTestApp({
        routes: planted(() => ({
          config: { audit: { action: 'read', resourceType: 'oral_photo' } },
        })),
      }),
    ).rejects.toThrow(
      `GET ${plantedPath} is audited as the signed-in member's but is not authenticated`,
    );
  });
});

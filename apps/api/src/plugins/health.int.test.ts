import { rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { startInferenceTestServer } from '#api-test/mocks/inference-test-server';
import { withJobQueue } from '#api-test/support/job-queue-app';
import { healthPaths } from './health';

describe('GET /api/health/live', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('answers without a token, never cached, with nothing but its status', async () => {
    const res = await t.request('GET', healthPaths.live);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
    expect(res.headers['cache-control']).toBe('no-store');
  });
});

describe('GET /api/health/ready', () => {
  let t: TestApp;
  let api: Awaited<ReturnType<typeof withJobQueue>>;
  beforeAll(async () => {
    t = await buildTestApp();
    api = await withJobQueue(t, { workers: false });
  }, 180_000);
  afterAll(async () => {
    await api.close();
    await t.close();
  });

  it('answers 200 when the database, file store, job queue and models are reachable', async () => {
    const res = await api.app.inject({ method: 'GET', url: healthPaths.ready });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toEqual({
      status: 'ready',
      failed: [],
      checks: { database: 'ok', blobStore: 'ok', jobQueue: 'ok', models: 'ok' },
    });
  });

  it('answers 503 naming the file store when its folder cannot hold files', async () => {
    // DATA_DIR/blobs becomes a plain file: no upload could be stored.
    const blobs = path.join(t.config.dataDir, 'blobs');
    await rm(blobs, { recursive: true, force: true });
    await writeFile(blobs, 'not a folder');
    const res = await api.app.inject({ method: 'GET', url: healthPaths.ready });
    expect(res.statusCode).toBe(503);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toEqual({
      status: 'unavailable',
      failed: ['blobStore'],
      checks: { database: 'ok', blobStore: 'failed', jobQueue: 'ok', models: 'ok' },
    });
  });
});

describe('readiness of a remote inference server', () => {
  it('names the models when the inference server is down, and times out one that never answers', async () => {
    const inference = await startInferenceTestServer(path.resolve('models'));
    const t = await buildTestApp({ env: { DENTAL_AI_ENDPOINT: inference.endpoint } });
    // Accepts connections and never answers.
    const silent: Server = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const silentPort = (silent.address() as { port: number }).port;
    const hung = await buildTestApp({
      env: { DENTAL_AI_ENDPOINT: `http://127.0.0.1:${String(silentPort)}` },
    });
    try {
      expect((await t.request('GET', healthPaths.ready)).json()).toMatchObject({
        status: 'ready',
        checks: { models: 'ok' },
      });
      await inference.close();
      const down = await t.request('GET', healthPaths.ready);
      expect(down.statusCode).toBe(503);
      expect(down.json()).toMatchObject({ failed: ['models'], checks: { models: 'failed' } });

      const slow = await hung.request('GET', healthPaths.ready);
      expect(slow.statusCode).toBe(503);
      expect(slow.json()).toMatchObject({ failed: ['models'], checks: { models: 'timeout' } });
    } finally {
      await Promise.all([t.close(), hung.close()]);
      silent.close();
    }
    // Three apps, each reading the shipped models: slow on a busy machine.
  }, 180_000);
});

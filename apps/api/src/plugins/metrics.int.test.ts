import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oralPhotoPaths } from '@dental/contracts';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories } from '#api-test/factories';
import { freePort } from '#api-test/support/free-port';
import { dataUrlOf, makePng } from '#api-test/fixtures/upload-test-files';
import { metricsPath } from './metrics';

const token = 'metrics-token-'.padEnd(40, 'x');

describe('metrics off (the default)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('serves no /metrics when neither a token nor a port is configured', async () => {
    const res = await t.request('GET', metricsPath);
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('http_requests_total');
  });
});

describe('metrics behind METRICS_TOKEN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { METRICS_TOKEN: token } });
  });
  afterAll(() => t.close());

  it('refuses a scrape without the token, or with another one', async () => {
    const attempts: Record<string, string>[] = [
      {},
      { authorization: `Bearer ${token}y` },
      { authorization: token },
    ];
    for (const headers of attempts) {
      const res = await t.request('GET', metricsPath, { headers });
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer');
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(res.body).not.toContain('http_requests_total');
    }
  });

  it('labels requests by route pattern, never by the ids in the URL', async () => {
    const member = await factories(t).loggedInMember();
    const id = randomUUID();
    const missing = await t.request('GET', oralPhotoPaths.one(id), {
      token: member.tokens.access,
    });
    expect(missing.statusCode).toBe(404);

    const res = await t.request('GET', metricsPath, { token });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    expect(res.body).toContain(
      'http_requests_total{method="GET",route="/api/oral-photo/:id/",status_code="404"} 1',
    );
    expect(res.body).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="\/api\/oral-photo\/:id\/",status_code="404"\} 1/,
    );
    expect(res.body).not.toContain(id);
    expect(res.body).not.toContain(member.id);
  });

  it('counts uploaded bytes by feature and reports event-loop lag and memory', async () => {
    const member = await factories(t).loggedInMember();
    const res = await t.request('POST', oralPhotoPaths.list, {
      token: member.tokens.access,
      body: {
        shoot_date: '2026-03-01',
        photo_type: 'X-ray',
        image_link: dataUrlOf(await makePng(), 'image/png'),
      },
    });
    expect(res.statusCode, res.body).toBe(201);

    const scraped = (await t.request('GET', metricsPath, { token })).body;
    const uploaded = /dental_upload_bytes_total\{area="oral-photo"\} (\d+)/.exec(scraped);
    expect(Number(uploaded?.[1])).toBeGreaterThan(0);
    expect(scraped).toContain('nodejs_eventloop_lag_seconds');
    expect(scraped).toContain('process_resident_memory_bytes');
    expect(scraped).toContain('# TYPE dental_ai_inference_seconds histogram');
    expect(scraped).toContain('# TYPE http_server_errors_total counter');
  });
});

describe('metrics on METRICS_PORT', () => {
  it('serves /metrics on its own listener only, and not on the API port', async () => {
    const port = await freePort();
    const t = await buildTestApp({ env: { HOST: '127.0.0.1', METRICS_PORT: String(port) } });
    try {
      const scraped = await fetch(`http://127.0.0.1:${String(port)}${metricsPath}`);
      expect(scraped.status).toBe(200);
      expect(await scraped.text()).toContain('process_resident_memory_bytes');
      expect((await t.request('GET', metricsPath)).statusCode).toBe(404);
    } finally {
      await t.close();
    }
    // Closed with the app.
    await expect(fetch(`http://127.0.0.1:${String(port)}${metricsPath}`)).rejects.toThrow();
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountPaths, configPath, problemContentType } from '@dental/contracts';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { notFoundMessage } from './errors';

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp({
    env: { COMPANY_NAME: 'Bright Smile', CUSTOMER_SERVICE_EMAIL: 'care@bright.example' },
  });
});
afterAll(() => t.close());

function expectProblem(
  res: Awaited<ReturnType<TestApp['request']>>,
  status: number,
  detail?: string,
) {
  expect(res.statusCode).toBe(status);
  expect(res.headers['content-type']).toContain(problemContentType);
  const body = res.json<{ type: string; title: string; status: number; detail: string }>();
  expect(body).toMatchObject({ type: 'about:blank', status, title: expect.any(String) as string });
  expect(body.detail.length).toBeGreaterThan(0);
  if (detail !== undefined) expect(body.detail).toBe(detail);
}

describe('error answers are RFC 9457 problems', () => {
  it('answers malformed JSON with 400', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: accountPaths.login,
      headers: { 'content-type': 'application/json' },
      payload: '{"login_type": "native", "email":',
    });
    expectProblem(res, 400, 'The request body is not valid JSON.');
  });

  it('answers an empty JSON body with 400', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: accountPaths.login,
      headers: { 'content-type': 'application/json' },
    });
    expectProblem(res, 400);
  });

  it.each([
    ['a JSON array', '[]', 'application/json'],
    ['a JSON string', '"hello"', 'application/json'],
    ['plain text', 'hello', 'text/plain'],
  ])('answers %s where an object is expected with 400', async (_label, payload, type) => {
    const res = await t.app.inject({
      method: 'POST',
      url: accountPaths.login,
      headers: { 'content-type': type },
      payload,
    });
    expectProblem(res, 400);
  });

  it('answers an unsupported content type with 415', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: accountPaths.login,
      headers: { 'content-type': 'application/xml' },
      payload: '<login/>',
    });
    expectProblem(res, 415);
  });

  it('answers a body over the limit with 413', async () => {
    const res = await t.request('POST', accountPaths.register, {
      body: { email: 'big@example.com', username: 'x'.repeat(1_100_000), password: 'x' },
    });
    expectProblem(res, 413, 'The request body is too large.');
  });

  it.each([
    ['GET', '/api/no-such-thing'],
    ['POST', '/api/no-such-thing/'],
    ['DELETE', '/api/account/register/'],
    ['GET', '/api'],
  ] as const)('answers %s %s with a 404 problem', async (method, url) => {
    expectProblem(await t.request(method, url), 404, notFoundMessage);
  });

  it('answers a malformed address with 400', async () => {
    expectProblem(await t.request('GET', '/api/%E0%A4%A'), 400);
  });
});

describe('security headers', () => {
  it('sends a strict content security policy and friends on every answer', async () => {
    for (const res of [await t.request('GET', configPath), await t.request('GET', '/api/nope')]) {
      const csp = String(res.headers['content-security-policy']);
      // WebAssembly may compile (the browser's HEIC decoder); JavaScript eval stays refused.
      expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
      expect(csp).not.toContain("'unsafe-eval'");
      expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('turns off the browser features the app does not use, on every answer', async () => {
    for (const res of [await t.request('GET', configPath), await t.request('GET', '/api/nope')]) {
      const policy = String(res.headers['permissions-policy']);
      for (const feature of ['microphone', 'geolocation', 'payment', 'usb']) {
        expect(policy).toContain(`${feature}=()`);
      }
      // The image viewer's full-screen button, and 'Take photos' (our own pages, nothing embedded).
      expect(policy).toContain('fullscreen=(self)');
      expect(policy).toContain('camera=(self)');
    }
  });

  it('allows no cross-origin reads (no CORS)', async () => {
    const simple = await t.request('GET', configPath, {
      headers: { origin: 'https://evil.example' },
    });
    expect(simple.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: accountPaths.account,
      headers: {
        origin: 'https://evil.example',
        'access-control-request-method': 'DELETE',
        'access-control-request-headers': 'authorization',
      },
    });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(preflight.headers['access-control-allow-methods']).toBeUndefined();
  });
});

describe('GET /api/config/', () => {
  it('answers the public settings', async () => {
    const res = await t.request('GET', configPath);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      company_name: 'Bright Smile',
      customer_service_email: 'care@bright.example',
      social_providers: [],
    });
  });
});

describe('OpenAPI', () => {
  interface OpenApiDocument {
    openapi: string;
    info: { title: string; version: string };
    paths: Record<
      string,
      Record<string, { responses: Record<string, unknown>; security?: unknown }>
    >;
    components: { securitySchemes: Record<string, unknown> };
  }

  it('describes every account route from the contracts at /api/docs/json', async () => {
    const res = await t.request('GET', '/api/docs/json');
    expect(res.statusCode).toBe(200);
    const document = res.json<OpenApiDocument>();
    expect(document.openapi).toMatch(/^3\./);
    expect(document.info).toMatchObject({ title: 'Bright Smile API', version: '1.0.0' });
    expect(document.components.securitySchemes).toHaveProperty('bearerAuth');
    const expected: [string, string][] = [
      [accountPaths.register, 'post'],
      [accountPaths.login, 'post'],
      [accountPaths.refresh, 'post'],
      [accountPaths.handoff, 'post'],
      [accountPaths.logout, 'post'],
      [accountPaths.account, 'get'],
      [accountPaths.account, 'put'],
      [accountPaths.account, 'delete'],
      [accountPaths.forgetPassword, 'post'],
      [accountPaths.updatePassword, 'post'],
      [accountPaths.socialMediaAccount, 'post'],
      [`${accountPaths.socialMediaAccount}{provider}/{id}/`, 'delete'],
      [configPath, 'get'],
    ];
    for (const [path, method] of expected) {
      const operation = document.paths[path]?.[method];
      expect(operation, `${method} ${path}`).toBeDefined();
      expect(Object.keys(operation?.responses ?? {}).length).toBeGreaterThan(0);
    }
    expect(document.paths[accountPaths.account]?.get?.security).toEqual([{ bearerAuth: [] }]);
    // The documentation's own routes and the page fallback are not API operations.
    expect(Object.keys(document.paths).every((path) => path.startsWith('/api/'))).toBe(true);
    expect(Object.keys(document.paths).some((path) => path.startsWith('/api/docs'))).toBe(false);
  });

  it('serves a browsable page that loads its scripts from files, not inline', async () => {
    const res = await t.request('GET', '/api/docs/');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    const inlineScripts = [...res.body.matchAll(/<script(?![^>]*\bsrc=)[^>]*>/g)];
    expect(inlineScripts).toEqual([]);
    expect(String(res.headers['content-security-policy'])).toContain("script-src 'self'");
    const initializer = await t.request('GET', '/api/docs/static/swagger-initializer.js');
    expect(initializer.statusCode).toBe(200);
  });
});

describe('GET /robots.txt', () => {
  it('keeps crawlers out of share links and the API, also without a web build', async () => {
    const res = await t.request('GET', '/robots.txt');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.body.split('\n')).toEqual(['User-agent: *', 'Disallow: /s/', 'Disallow: /api/', '']);
  });
});

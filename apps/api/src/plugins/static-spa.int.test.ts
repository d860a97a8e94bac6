import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configPath, problemContentType } from '@dental/contracts';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';

const indexHtml =
  '<!doctype html><html><head><script type="module" src="/static/js/main.1a2b.js"></script></head><body><div id="root"></div></body></html>';
const clinicHtml =
  '<!doctype html><html><head><script type="module" src="/static/js/clinic-clinic.3c4d.js"></script></head><body><div id="root"></div></body></html>';
const mainScript = `console.log(${JSON.stringify('app '.repeat(200))});`;
let webDist: string;
let t: TestApp;

beforeAll(async () => {
  webDist = await mkdtemp(path.join(os.tmpdir(), 'dental-web-dist-'));
  await mkdir(path.join(webDist, 'static', 'js'), { recursive: true });
  await writeFile(path.join(webDist, 'index.html'), indexHtml);
  await writeFile(path.join(webDist, 'clinic.html'), clinicHtml);
  const script = path.join(webDist, 'static', 'js', 'main.1a2b.js');
  await writeFile(script, mainScript);
  // As scripts/build.mjs leaves them: a Brotli and a gzip copy beside each text file.
  await writeFile(`${script}.br`, brotliCompressSync(mainScript));
  await writeFile(`${script}.gz`, gzipSync(mainScript));
  await writeFile(path.join(webDist, 'index.html.br'), brotliCompressSync(indexHtml));
  await writeFile(path.join(webDist, 'index.html.gz'), gzipSync(indexHtml));
  await writeFile(path.join(webDist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  // The installable app's files (docs/decisions/installable-app.md).
  await writeFile(path.join(webDist, 'sw.js'), 'self.addEventListener("fetch", () => {});');
  await writeFile(path.join(webDist, 'manifest.webmanifest'), '{"name":"Dental Companion"}');
  await mkdir(path.join(webDist, 'icons'));
  await writeFile(path.join(webDist, 'icons', 'icon-192.png'), Buffer.from([0x89, 0x50]));
  t = await buildTestApp({ env: { WEB_DIST: webDist } });
});
afterAll(async () => {
  await t.close();
  await rm(webDist, { recursive: true, force: true });
});

const page = (url: string) => t.request('GET', url, { headers: { accept: 'text/html' } });

describe('the single-page app', () => {
  it('serves index.html at / without caching and with the strict policy', async () => {
    const res = await page('/');
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(indexHtml);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(String(res.headers['content-security-policy'])).toContain("script-src 'self'");
  });

  it.each(['/login', '/account', '/oral-photo/3/edit', '/update-password?key=abc'])(
    'answers the page %s with index.html for the client-side router',
    async (url) => {
      const res = await page(url);
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(indexHtml);
      expect(res.headers['cache-control']).toBe('no-cache');
    },
  );

  // The console is its own page, so that the patient's screens load none of its code.
  it.each(['/clinic', '/clinic/', '/clinic/hours', '/clinic/invitation?token=abc', '/clinic?x=1'])(
    'answers the clinic console’s page %s with clinic.html',
    async (url) => {
      const res = await page(url);
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(clinicHtml);
      expect(res.headers['cache-control']).toBe('no-cache');
    },
  );

  it('answers a patient page that only begins like the console with index.html', async () => {
    expect((await page('/clinical-notes')).body).toBe(indexHtml);
  });

  it('answers robots.txt itself, not with the app’s page', async () => {
    const res = await page('/robots.txt');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Disallow: /s/');
  });

  it('keeps a share link’s page out of search engines and referrers', async () => {
    const res = await page('/s/AbCdEf123_-');
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(indexHtml);
    expect(res.headers['x-robots-tag']).toBe('noindex, nofollow');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect((await page('/login')).headers['x-robots-tag']).toBeUndefined();
  });

  it('sends the build’s Brotli or gzip copy to a browser that takes it, else the file', async () => {
    const url = '/static/js/main.1a2b.js';
    const br = await t.request('GET', url, { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('accept-encoding');
    expect(br.rawPayload.byteLength).toBeLessThan(mainScript.length / 4);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(mainScript);
    const gz = await t.request('GET', url, { headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(mainScript);
    const plain = await t.request('GET', url, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(mainScript);
    for (const res of [br, gz, plain]) {
      expect(res.headers['content-type']).toContain('javascript');
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
    const page = await t.request('GET', '/login', {
      headers: { accept: 'text/html', 'accept-encoding': 'br' },
    });
    expect(page.headers['content-encoding']).toBe('br');
    expect(page.headers['content-type']).toContain('text/html');
    expect(brotliDecompressSync(page.rawPayload).toString()).toBe(indexHtml);
  });

  it('serves hashed build files as immutable for a year', async () => {
    const res = await t.request('GET', '/static/js/main.1a2b.js');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('javascript');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('serves build files written after the start (a rebuild while running)', async () => {
    await writeFile(path.join(webDist, 'static', 'js', 'late.3c4d.js'), 'console.log("late");');
    const res = await t.request('GET', '/static/js/late.3c4d.js');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('serves other top-level files, revalidated', async () => {
    const res = await t.request('GET', '/favicon.svg');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  // A browser looks for a new service worker at each visit; a cached /sw.js would hold back every
  // update of the app, so it is revalidated like the page, and it may control the whole origin.
  it('serves the service worker at /sw.js as JavaScript, revalidated', async () => {
    const res = await t.request('GET', '/sw.js');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^(?:text|application)\/javascript/);
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('serves the app manifest and its icons, revalidated', async () => {
    const manifest = await t.request('GET', '/manifest.webmanifest');
    expect(manifest.statusCode).toBe(200);
    expect(manifest.headers['content-type']).toMatch(/^application\/manifest\+json/);
    expect(manifest.headers['cache-control']).toBe('no-cache');
    const icon = await t.request('GET', '/icons/icon-192.png');
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['content-type']).toBe('image/png');
  });

  it('answers a missing script with 404, not with the page', async () => {
    const res = await t.request('GET', '/static/js/gone.9z9z.js', { headers: { accept: '*/*' } });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toContain(problemContentType);
  });

  it('keeps /api/ answers as problems even for a browser', async () => {
    const res = await page('/api/not-here');
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toContain(problemContentType);
    expect((await t.request('GET', configPath)).statusCode).toBe(200);
  });

  it('answers non-GET requests to pages with a 404 problem', async () => {
    const res = await t.request('POST', '/account', { body: {} });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toContain(problemContentType);
  });
});

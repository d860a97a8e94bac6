import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import type { Page } from '@playwright/test';
import { expect, logIn, registerAccount, test } from './support/fixtures';
import { checkScreen, phoneViewport } from './support/layout-checks';
import { startOwnServer } from './support/own-server';
import { storeXray } from './support/stored-photos';
import { shoot } from './screenshots/shoot';

// The installable phone app (docs/decisions/installable-app.md). The other journeys run without
// the service worker (playwright.config.ts); these allow it.
test.use({ viewport: phoneViewport, hasTouch: true, serviceWorkers: 'allow' });

/** Waits until the service worker has installed, kept the app's files and controls the page. */
async function controlledByServiceWorker(page: Page) {
  await page.evaluate(() => navigator.serviceWorker.ready);
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null))
    .toBe(true);
}

/** Every entry of the page's Cache Storage: its address and its body as text. */
function cachedEntries(page: Page) {
  return page.evaluate(async () => {
    const entries: { url: string; body: string }[] = [];
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      for (const request of await cache.keys()) {
        const response = await cache.match(request);
        entries.push({ url: request.url, body: (await response?.text()) ?? '' });
      }
    }
    return entries;
  });
}

test('passes Chrome’s install checks', async ({ playwright, launchOptions, baseURL }) => {
  // A browser profile of its own: Chrome offers no install in a private window, which is what a
  // journey's usual context is.
  const profile = await mkdtemp(path.join(tmpdir(), 'dental-installable-profile-'));
  const context = await playwright.chromium.launchPersistentContext(profile, {
    ...launchOptions,
    baseURL,
    viewport: phoneViewport,
    hasTouch: true,
    serviceWorkers: 'allow',
  });
  try {
    await installable(context.pages()[0] ?? (await context.newPage()));
  } finally {
    await context.close();
    await rm(profile, { recursive: true, force: true });
  }
});

test('keeps no health data and opens offline', async ({ page, request }) => {
  const account = await registerAccount(request);
  const xRay = await storeXray(request, account, `Upper left molar ${account.username}`);
  await page.goto('/login');
  await controlledByServiceWorker(page);

  // The member's data screens, and the knowledge read while online.
  await logIn(page, account);
  for (const [screen, heading] of [
    ['/oral-photo', 'X-rays and Photos Storage'],
    ['/medical-records', 'Medical or Ins. Records Storage'],
    ['/appointments', 'Appointments Remind & History'],
    ['/account', 'My Account'],
  ] as const) {
    await page.goto(screen);
    await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
  }
  await page.goto('/dental-knowledge');
  const articles = page.getByRole('list', { name: 'Articles' }).getByRole('listitem');
  await expect(articles).toHaveCount(12);
  await articles.filter({ hasText: 'How to Brush Your Teeth' }).getByRole('heading').click();
  await expect(
    page.getByRole('heading', { name: 'When to see a dentist', level: 2 }),
  ).toBeVisible();
  const articleUrl = page.url();

  // Cache Storage holds the app's files and the knowledge, nothing of the member.
  const entries = await cachedEntries(page);
  expect(entries.some((entry) => new URL(entry.url).pathname === '/index.html')).toBe(true);
  const apiAnswers = entries
    .map((entry) => new URL(entry.url).pathname)
    .filter((pathname) => pathname.startsWith('/api/'));
  expect(apiAnswers.length).toBeGreaterThan(0);
  for (const pathname of apiAnswers) {
    expect(pathname).toMatch(/^\/api\/(?:dental-knowledge|content\/images)\//);
  }
  const memberData = [account.email, account.username, xRay.id, xRay.note];
  for (const entry of entries) {
    for (const value of memberData) expect(entry.body, entry.url).not.toContain(value);
  }
  expect(entries.some((entry) => entry.url.includes('clinic'))).toBe(false);

  // Offline: the app starts, the article read opens, a data screen says it needs the network.
  await page.context().setOffline(true);
  await page.reload();
  await expect(
    page.getByRole('heading', { name: 'How to Brush Your Teeth', level: 1 }),
  ).toBeVisible();
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'You are ready to go!' })).toBeVisible();
  await page.goto(articleUrl);
  await expect(
    page.getByRole('heading', { name: 'When to see a dentist', level: 2 }),
  ).toBeVisible();
  await page.goto('/appointments');
  await expect(page.getByText('You are offline', { exact: true })).toBeVisible();
  await expect(page.getByText(/This screen needs an internet connection\./)).toBeVisible();
  await checkScreen(page, 'offline data screen');
  await shoot(page, 'offline-screen');
  await page.getByRole('link', { name: 'Read dental knowledge' }).click();
  await expect(articles).toHaveCount(12);

  // Back online: the screen loads again.
  await page.context().setOffline(false);
  await page.goto('/appointments');
  await expect(
    page.getByRole('heading', { name: 'Appointments Remind & History', level: 1 }),
  ).toBeVisible();
  await expect(page.getByText('You are offline', { exact: true })).toBeHidden();
});
/** What Chrome's install prompt asks of the page, through DevTools. */
async function installable(page: Page) {
  await page.goto('/login');
  await controlledByServiceWorker(page);
  const devTools = await page.context().newCDPSession(page);
  const manifest = (await devTools.send('Page.getAppManifest')) as {
    url: string;
    errors: { message: string }[];
    data: string;
  };
  expect(manifest.url).toMatch(/\/manifest\.webmanifest$/);
  expect(manifest.errors).toEqual([]);
  const fields = JSON.parse(manifest.data) as Record<string, unknown>;
  expect(fields).toMatchObject({
    name: 'Dental Companion',
    display: 'standalone',
    start_url: '/',
    scope: '/',
    id: '/',
    theme_color: '#0f6f69',
    background_color: '#f8f9fa',
  });
  expect(fields.icons).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ sizes: '192x192' }),
      expect.objectContaining({ sizes: '512x512', purpose: 'maskable' }),
    ]),
  );
  expect((fields.shortcuts as { name: string; url: string }[]).map((s) => [s.name, s.url])).toEqual(
    [
      ['Add photo', '/oral-photo/add'],
      ['Appointments', '/appointments'],
      ['Dental AI', '/dental-ai'],
    ],
  );
  const { installabilityErrors } = (await devTools.send('Page.getInstallabilityErrors')) as {
    installabilityErrors: unknown[];
  };
  expect(installabilityErrors).toEqual([]);
}

test('offers a new version and reloads into it', async ({ browser }) => {
  // Its own server migrates a new embedded database first, as the other own-server journeys do.
  test.setTimeout(180_000);
  // A server of its own on a copy of the build, so that changing its /sw.js touches no other
  // journey's pages.
  const folder = await mkdtemp(path.join(tmpdir(), 'dental-installable-'));
  const webDist = path.join(folder, 'web');
  await cp('apps/web/dist', webDist, { recursive: true });
  const server = await startOwnServer(path.join(folder, 'data'), { WEB_DIST: webDist });
  const context = await browser.newContext({
    baseURL: server.url,
    viewport: phoneViewport,
    hasTouch: true,
    reducedMotion: 'reduce',
    serviceWorkers: 'allow',
  });
  try {
    const page = await context.newPage();
    await page.goto('/login');
    await controlledByServiceWorker(page);
    const notice = page.getByText('A new version is ready —');
    await expect(notice).toBeHidden();

    // A new build: its worker differs (what a rebuild's new file list does), copies included.
    const worker = path.join(webDist, 'sw.js');
    const changed = `${await readFile(worker, 'utf8')}\n// the next version\n`;
    await writeFile(worker, changed);
    await writeFile(`${worker}.br`, brotliCompressSync(changed));
    await writeFile(`${worker}.gz`, gzipSync(changed));
    await page.evaluate(async () => {
      await (await navigator.serviceWorker.getRegistration())?.update();
    });

    await expect(notice).toBeVisible();
    await expect(page.getByRole('button', { name: 'Reload' })).toBeVisible();
    await expect
      .poll(() => page.evaluate(async () => (await navigator.serviceWorker.ready).waiting !== null))
      .toBe(true);
    await checkScreen(page, 'new version notice');
    await shoot(page, 'update-ready');

    // Reload hands over to the new worker, and the page reloads once under it.
    await page.evaluate(() => {
      (window as { beforeUpdate?: boolean }).beforeUpdate = true;
    });
    const reloaded = page.waitForEvent('load');
    await page.getByRole('button', { name: 'Reload' }).click();
    await reloaded;
    expect(
      await page.evaluate(() => (window as { beforeUpdate?: boolean }).beforeUpdate ?? false),
    ).toBe(false);
    await expect(page.getByRole('heading', { name: 'Log in', exact: true })).toBeVisible();
    const after = await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.ready;
      return {
        controlled: navigator.serviceWorker.controller?.state,
        waiting: registration.waiting,
        installing: registration.installing,
      };
    });
    expect(after).toEqual({ controlled: 'activated', waiting: null, installing: null });
    await expect(notice).toBeHidden();
  } finally {
    await context.close();
    await server.stop();
    await rm(folder, { recursive: true, force: true });
  }
});

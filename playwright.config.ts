import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

// 3400 by default; engineers running their journeys side by side each pass their own E2E_PORT.
const port = Number(process.env.E2E_PORT ?? '3400');
if (!Number.isInteger(port) || port <= 0 || port > 65535) {
  throw new Error(`E2E_PORT must be a port number, got ${String(process.env.E2E_PORT)}.`);
}
const baseURL = `http://localhost:${port}`;

// One DATA_DIR per run, named here and created fresh by scripts/e2e-server.mjs. Workers inherit
// the runner's environment, so the tests find the same mail outbox through E2E_DATA_DIR.
process.env.E2E_DATA_DIR ??= path.join(tmpdir(), `dental-e2e-${randomUUID()}`);
const dataDir = process.env.E2E_DATA_DIR;

/** The practice's first administrator, invited when the server starts (e2e/messages.spec.ts
 *  answers a member's message as them). */
export const e2eClinicAdminEmail = 'admin@clinic.e2e.example';

/** The API serving the built app; the screenshot config starts the same one. */
export const webServer = {
  command: 'node scripts/e2e-server.mjs',
  url: `${baseURL}/api/config/`,
  reuseExistingServer: false,
  timeout: 240_000,
  gracefulShutdown: { signal: 'SIGTERM' as const, timeout: 10_000 },
  stdout: 'ignore' as const,
  stderr: 'pipe' as const,
  env: {
    HOST: 'localhost',
    PORT: String(port),
    // PUBLIC_URL is left to the server's default, http://HOST:PORT, which is baseURL: the API's
    // config rejects an explicit http://localhost:… value (see the e2e-harness decision).
    DATA_DIR: dataDir,
    // Deactivation asks for the password one minute after the sign-in instead of ten, so the
    // password-prompt journey need not wait long (docs/decisions/session-timeouts.md).
    SESSION_REAUTH_MINUTES: '1',
    // Every journey signs in from the same address, well over the 100 sign-ins per address in
    // 15 minutes that a real client gets; no journey tests that limit (the API tests do).
    RATE_LIMIT_PER_IP: '100000',
    CLINIC_ADMIN_EMAIL: e2eClinicAdminEmail,
    // The local push service of e2e/push-notifications.spec.ts (docs/decisions/web-push.md).
    PUSH_LOCAL_ENDPOINTS: 'on',
  },
};

export default defineConfig({
  testDir: 'e2e',
  // Per port, so that journeys run side by side do not clear each other's results.
  outputDir: `.test-artifacts/playwright-${port}/results`,
  forbidOnly: true,
  // One retry under CI only; a journey that passes on it is listed as flaky in the output
  // (docs/decisions/e2e-harness.md#retries).
  retries: process.env.CI ? 1 : 0,
  // Three on two cores: the reminder and re-authentication journeys spend a minute or more
  // waiting on real time, and with two workers both could sit idle together
  // (docs/decisions/e2e-harness.md#workers).
  workers: 3,
  // Generous: the journeys share two cores with the server and the browser.
  timeout: 90_000,
  expect: { timeout: 15_000 },
  reporter: [['list'], ['json', { outputFile: `.test-artifacts/playwright-${port}/report.json` }]],
  use: {
    baseURL,
    // Recording a trace for every journey took a third of this tier's time on two cores; a failure
    // still leaves its screenshot and page snapshot. Debug one with `npx playwright test --trace on`.
    trace: 'off',
    screenshot: 'only-on-failure',
    // No opening animations: a click sent while a card slid open landed its mouse-up on whatever
    // had moved under the pointer, so it clicked nothing (docs/decisions/e2e-harness.md#retries).
    reducedMotion: 'reduce',
    // The app's service worker would download the whole app into every fresh context, and
    // page.route does not see what it answers; e2e/installable-app.spec.ts allows it
    // (docs/decisions/installable-app.md).
    serviceWorkers: 'block',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        browserName: 'chromium',
        viewport: { width: 1280, height: 800 },
        launchOptions: {
          executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-quic',
            '--no-first-run',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
          ],
        },
      },
    },
  ],
  webServer,
});

import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';
import base, { webServer } from '../../playwright.config';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Screenshots for the docs (docs/screenshots/), taken by hand and never part of `npm test`:
 * `E2E_PORT=<port> npx playwright test -c e2e/screenshots/playwright.config.ts`.
 */
export default defineConfig({
  ...base,
  testDir: '.',
  testMatch: '*.screens.ts',
  // The server script's path is relative to the repository root, not to this folder.
  webServer: { ...webServer, cwd: root },
});

import { defineConfig } from '@playwright/test';
import base from '../../playwright.config';

/**
 * Screenshots for the docs (docs/screenshots/), taken by hand and never part of `npm test`:
 * `E2E_PORT=<port> npx playwright test -c e2e/screenshots/playwright.config.ts`.
 */
export default defineConfig({
  ...base,
  testDir: '.',
  testMatch: '*.screens.ts',
});

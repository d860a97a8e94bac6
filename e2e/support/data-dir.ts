import path from 'node:path';

/**
 * The DATA_DIR of the server under test (scripts/e2e-server.mjs runs it there): its mail outbox
 * is `outbox/mail`, its SMS outbox `outbox/sms`. playwright.config.ts sets E2E_DATA_DIR.
 */
export function e2eDataDir(): string {
  const dataDir = process.env.E2E_DATA_DIR;
  if (dataDir === undefined) {
    throw new Error('E2E_DATA_DIR is not set; run the journeys through playwright.config.ts.');
  }
  return dataDir;
}

/** A folder inside the server's DATA_DIR, e.g. `e2eDataPath('outbox', 'mail')`. */
export function e2eDataPath(...segments: string[]): string {
  return path.join(e2eDataDir(), ...segments);
}

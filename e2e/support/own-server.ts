import { execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { APIRequest, Page } from '@playwright/test';
import { expect, registerAccount, submitLogin } from './fixtures';

const execFileAsync = promisify(execFile);

/** What scripts/e2e-server.mjs builds before any journey runs: the server `npm start` runs. */
const compiledServer = path.join('apps', 'api', 'dist', 'server.js');

export interface OwnServer {
  url: string;
  stop: () => Promise<void>;
}

/**
 * An API server of a journey's own, serving the built app on an embedded database in `dataDir`,
 * for a journey whose data no other journey may see. `env` adds to or overrides the defaults
 * (PORT 0 lets the system pick a free port).
 */
export async function startOwnServer(
  dataDir: string,
  env: Record<string, string> = {},
): Promise<OwnServer> {
  const child = spawn(process.execPath, [compiledServer], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      HOST: 'localhost',
      PORT: '0',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /is running at (http:\/\/localhost:\d+)\//.exec(output);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      reject(new Error(`the server stopped (exit ${String(code)}) before listening:\n${output}`));
    });
  });
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) {
          resolve();
          return;
        }
        child.once('exit', () => {
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

/** The clinic command on the server that holds `dataDir`, writing through it
 *  (docs/decisions/clinic-channel.md); answers what it printed. */
export async function clinicCommand(dataDir: string, ...argv: string[]): Promise<string> {
  const { stdout } = await execFileAsync(
    process.execPath,
    ['--import', 'tsx', 'apps/api/src/cli/clinic.ts', ...argv],
    { env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' } },
  );
  return stdout;
}

/**
 * A member signed in on a server of the journey's own (for the shipped models, which the journeys'
 * server replaces with a fixture for caries on X-rays): `work` gets the server's address with the
 * page signed in; the server and its data are gone afterwards.
 */
export async function asMemberOfOwnServer(
  page: Page,
  playwright: { request: APIRequest },
  work: (url: string) => Promise<void>,
): Promise<void> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'dental-e2e-own-'));
  const server = await startOwnServer(dataDir);
  const request = await playwright.request.newContext({ baseURL: server.url });
  try {
    const account = await registerAccount(request, { dataDir });
    await page.goto(`${server.url}/login`);
    await submitLogin(page, account);
    await expect(page.getByRole('heading', { name: 'You are ready to go!' })).toBeVisible();
    await work(server.url);
  } finally {
    await request.dispose();
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

// The server the Playwright journeys talk to: the API as `npm start` runs it (the compiled bundle)
// serving the built app, on a fresh, empty DATA_DIR for every run (so the mail outbox holds only
// this run's messages), removed again when Playwright stops the server. Like `npm start`, it first
// builds what is missing or older than its sources, so a journey never meets yesterday's code.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildStale, targets } from './build.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

await buildStale();
const api = targets.find((target) => target.name === 'API');

// playwright.config.ts names the folder so that the tests can read the outbox inside it.
const dataDir = process.env.DATA_DIR ?? mkdtempSync(path.join(tmpdir(), 'dental-e2e-'));
rmSync(dataDir, { recursive: true, force: true });
// Owner-only: the server refuses a DATA_DIR others can read (docs/decisions/data-dir-lock.md).
mkdirSync(dataDir, { recursive: true, mode: 0o700 });

// The Dental AI journeys detect with the API tests' fixture model (it finds pure red squares),
// put where the server looks for a caries model, so their boxes are known in advance.
const fixtureModel = spawnSync(
  process.execPath,
  [
    '--import',
    'tsx',
    'apps/api/test/fixtures/write-fixture-model.ts',
    path.join(dataDir, 'models', 'caries.onnx'),
  ],
  { cwd: root, stdio: 'inherit' },
);
if (fixtureModel.status !== 0) {
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(fixtureModel.status ?? 1);
}

// Google, Apple and Facebook as local servers on E2E_PORT+1..+3 (docs/decisions/social-sign-in.md);
// they print the API's provider settings as one JSON line once they listen.
const port = Number(process.env.PORT ?? '3400');
const providers = spawn(
  process.execPath,
  [
    '--import',
    'tsx',
    'apps/api/test/support/social-providers-server.ts',
    ...[1, 2, 3].map((offset) => String(port + offset)),
  ],
  { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
);
const providerEnv = await new Promise((resolve, reject) => {
  providers.stdout.once('data', (line) => resolve(JSON.parse(String(line))));
  providers.once('exit', (code) => reject(new Error(`The social providers exited (${code}).`)));
});

// The server's own log is kept beside the run's results, since Playwright discards its output: a
// journey that stalls can then be read against the requests the server saw and how long each took.
const logDir = path.join(root, '.test-artifacts', `playwright-${port}`);
mkdirSync(logDir, { recursive: true });
const serverLog = openSync(path.join(logDir, 'server.log'), 'w');
const server = spawn(process.execPath, [api.output], {
  cwd: root,
  stdio: ['ignore', serverLog, 'inherit'],
  env: { ...process.env, ...providerEnv, DATA_DIR: dataDir },
});

// Playwright (and Ctrl-C) signal the whole process group, so the server gets the signal itself
// and shuts down gracefully; this process only stays alive to remove DATA_DIR afterwards.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => undefined);
}

server.on('exit', (code, signal) => {
  providers.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(signal ? 1 : (code ?? 1));
});

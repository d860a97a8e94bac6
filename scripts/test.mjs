// `npm test`: every tier of the suite in order. A failed tier does not stop the run, so the
// summary is always complete; the exit status is non-zero when anything failed.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const artifacts = path.join(root, '.test-artifacts');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const python = process.platform === 'win32' ? 'python' : 'python3';
const defaultDatabaseUrl = 'postgres://postgres@127.0.0.1:5432/postgres';

/** Runs a command with the terminal attached, or with its output collected into `output` when
 *  one is given (a check that runs beside others); resolves with its exit code. */
function run(command, args, env = {}, output = undefined) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: root,
      stdio: output === undefined ? 'inherit' : ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...env },
    });
    child.stdout?.on('data', (chunk) => output.push(chunk));
    child.stderr?.on('data', (chunk) => output.push(chunk));
    child.on('error', (error) => {
      output?.push(Buffer.from(`Could not start ${command}: ${error.message}\n`));
      if (output === undefined) console.error(`Could not start ${command}: ${error.message}`);
      resolve(1);
    });
    child.on('close', (code, signal) => resolve(signal ? 1 : (code ?? 1)));
  });
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** A tool that is one check (lint, format, types, build): passed or failed as a whole. */
async function singleCheck(command, args, output) {
  const code = await run(command, args, {}, output);
  return code === 0 ? { passed: 1, failed: 0 } : { passed: 0, failed: 1 };
}

/**
 * Counts come from vitest's JSON report. Files that fail to load count as failures too, and a
 * run that failed without reporting any failed test (crash, no test files) counts as one.
 */
async function vitestTier(reportName, projects, env) {
  const report = path.join(artifacts, `${reportName}.json`);
  rmSync(report, { force: true });
  const projectArgs = projects.flatMap((project) => ['--project', project]);
  const code = await run(
    bin('vitest'),
    ['run', ...projectArgs, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`],
    env,
  );
  const json = readJson(report);
  const passed = json?.numPassedTests ?? 0;
  const skipped = (json?.numPendingTests ?? 0) + (json?.numTodoTests ?? 0);
  const loadFailures = (json?.testResults ?? []).filter(
    (file) => file.status === 'failed' && file.assertionResults.length === 0,
  ).length;
  let failed = (json?.numFailedTests ?? 0) + loadFailures;
  if (code !== 0 && failed === 0) failed = 1;
  return { passed, failed, skipped };
}

function redactedUrl(url) {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return url;
  }
}

/** A short connect before the PostgreSQL suite, so an absent server fails with instructions. */
async function postgresReachable(url) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message || error.name : String(error);
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function postgresTier() {
  const url = process.env.TEST_DATABASE_URL ?? defaultDatabaseUrl;
  const problem = await postgresReachable(url);
  if (problem !== undefined) {
    console.error(
      [
        `PostgreSQL is not reachable at ${redactedUrl(url)} (${problem}).`,
        'The API suite runs on a real PostgreSQL too; it creates a fresh database for each run.',
        'Start a local server that accepts the postgres user without a password, for example:',
        '  docker run --rm -d --name dental-postgres -p 5432:5432 -e POSTGRES_HOST_AUTH_METHOD=trust postgres:17',
        'or point TEST_DATABASE_URL at a server whose user may create databases, e.g.',
        '  TEST_DATABASE_URL=postgres://user:password@host:5432/postgres npm test',
      ].join('\n'),
    );
    return { passed: 0, failed: 1 };
  }
  return vitestTier('vitest-api-postgres', ['api'], { TEST_DB: 'postgres' });
}

/**
 * The training code's tests that need neither PyTorch nor the data set (training/test_common.py),
 * counted from the report training/run_light_tests.py writes. The PyTorch ones are run by hand.
 */
async function trainingTier() {
  const report = path.join(artifacts, 'training-tests.json');
  rmSync(report, { force: true });
  const code = await run(python, [path.join(root, 'training', 'run_light_tests.py'), report]);
  const json = readJson(report);
  const passed = json?.passed ?? 0;
  let failed = json?.failed ?? 0;
  if (code !== 0 && failed === 0) failed = 1;
  return { passed, failed, skipped: json?.skipped ?? 0 };
}

/** Counts come from Playwright's JSON report (written by playwright.config.ts). */
async function playwrightTier() {
  const chromium = await run(process.execPath, [path.join(root, 'scripts/ensure-chromium.mjs')]);
  if (chromium !== 0) return { passed: 0, failed: 1 };
  // Where playwright.config.ts writes it: one folder per E2E_PORT.
  const report = path.join(
    artifacts,
    `playwright-${process.env.E2E_PORT ?? '3400'}`,
    'report.json',
  );
  rmSync(report, { force: true });
  const code = await run(bin('playwright'), ['test']);
  const stats = readJson(report)?.stats;
  const passed = (stats?.expected ?? 0) + (stats?.flaky ?? 0);
  const skipped = stats?.skipped ?? 0;
  let failed = stats?.unexpected ?? 0;
  if (code !== 0 && failed === 0) failed = 1;
  return { passed, failed, skipped };
}

// Lint and the type check are each one process on one core; the format check and the build
// share the other, so the four take as long as lint alone (docs/decisions/test-orchestrator.md).
const checksTogether = [
  [{ name: 'lint', describe: 'eslint .', args: ['run', 'lint'] }],
  [
    { name: 'format', describe: 'prettier --check .', args: ['run', 'format:check'] },
    { name: 'types', describe: 'npm run typecheck', args: ['run', 'typecheck'] },
    { name: 'build', describe: 'npm run build', args: ['run', 'build'] },
  ],
];

const tiers = [
  {
    name: 'unit',
    describe: 'vitest projects unit and web',
    run: () => vitestTier('vitest-unit', ['unit', 'web']),
  },
  {
    name: 'training (Python)',
    describe: 'python3 training/run_light_tests.py',
    run: trainingTier,
  },
  {
    name: 'api (PGlite)',
    describe: 'TEST_DB=pglite vitest run --project api',
    run: () => vitestTier('vitest-api-pglite', ['api'], { TEST_DB: 'pglite' }),
  },
  {
    name: 'api (PostgreSQL)',
    describe: 'TEST_DB=postgres vitest run --project api',
    run: postgresTier,
  },
  {
    name: 'e2e (Chromium)',
    describe: 'playwright test',
    run: playwrightTier,
  },
];

/** Runs each lane's checks in order, the lanes side by side; a check's output is printed whole
 *  when it ends, so that the logs of checks running together do not interleave. */
async function runChecksTogether(lanes) {
  const lanesDone = lanes.map(async (lane) => {
    const results = [];
    for (const check of lane) {
      const output = [];
      const started = performance.now();
      const counts = await singleCheck(npm, check.args, output);
      const ms = performance.now() - started;
      console.log(`\n=== ${check.name}: ${check.describe}`);
      process.stdout.write(Buffer.concat(output));
      results.push({ name: check.name, ...counts, ms });
    }
    return results;
  });
  return (await Promise.all(lanesDone)).flat();
}

function formatDuration(ms) {
  const seconds = Math.round(ms / 1000);
  return seconds >= 60 ? `${Math.floor(seconds / 60)}m ${seconds % 60}s` : `${seconds}s`;
}

function printTable(results) {
  const header = ['tier', 'passed', 'failed', 'skipped', 'time', 'result'];
  const rows = results.map((result) => [
    result.name,
    String(result.passed),
    String(result.failed),
    String(result.skipped ?? 0),
    formatDuration(result.ms),
    result.failed === 0 ? 'ok' : 'FAILED',
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column].length)),
  );
  const line = (cells) =>
    cells
      .map((cell, column) =>
        column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]),
      )
      .join('  ');
  console.log(`\n${line(header)}\n${widths.map((width) => '-'.repeat(width)).join('  ')}`);
  for (const row of rows) console.log(line(row));
}

mkdirSync(artifacts, { recursive: true });
const started = performance.now();
const results = await runChecksTogether(checksTogether);
for (const tier of tiers) {
  console.log(`\n=== ${tier.name}: ${tier.describe}`);
  const tierStarted = performance.now();
  const counts = await tier.run();
  results.push({ name: tier.name, ...counts, ms: performance.now() - tierStarted });
}

printTable(results);
const passed = results.reduce((sum, result) => sum + result.passed, 0);
const failed = results.reduce((sum, result) => sum + result.failed, 0);
console.log(`\ntotal time ${formatDuration(performance.now() - started)}`);
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed === 0 ? 0 : 1;

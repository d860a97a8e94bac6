// What every benchmark shares: load generation, the bare-route yardstick, a throwaway
// PostgreSQL database, the real API and a logged-in member.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import Fastify, { type FastifyInstance } from 'fastify';
import pg from 'pg';
import sharp from 'sharp';
import { sql } from 'drizzle-orm';
import { accountPaths, type TokenPair } from '@dental/contracts';
import { createMailer } from '../apps/api/src/adapters/mailer';
import { buildApp } from '../apps/api/src/app';
import { loadConfig } from '../apps/api/src/config';
import { databaseTarget, openDatabase, rowsOf } from '../apps/api/src/db/client';
import { jobQueueSettings, startJobQueue } from '../apps/api/src/jobs/job-queue';
import { AccountRepository } from '../apps/api/src/modules/account/account.repository';
import { AuthRepository } from '../apps/api/src/modules/auth/auth.repository';
import { median } from './median';

/** Seconds of load per measurement (BENCH_DURATION_SECONDS); bounded so a run stays short. */
export const benchDurationSeconds = Math.min(
  60,
  Math.max(1, Number(process.env.BENCH_DURATION_SECONDS ?? 10)),
);
export const connections = 10;
const adminUrl =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/postgres';

export interface Measurement {
  label: string;
  requestsPerSecond: number;
  p99Ms: number;
}

/**
 * Loads one URL on 127.0.0.1 for benchDurationSeconds after a short warm-up. The load comes from
 * a worker thread so that it does not share the server's event loop.
 */
export async function measure(
  label: string,
  url: string,
  headers: Record<string, string> = {},
): Promise<Measurement> {
  await autocannon({ url, headers, connections, duration: 2, workers: 1 });
  const result = await autocannon({
    url,
    headers,
    connections,
    duration: benchDurationSeconds,
    workers: 1,
  });
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(
      `${label}: ${result.non2xx} non-2xx answers, ${result.errors} errors and ${result.timeouts} timeouts; the figures would mean nothing.`,
    );
  }
  return { label, requestsPerSecond: result.requests.average, p99Ms: result.latency.p99 };
}

/**
 * Runs every measurement once per round, in turn, and answers each one's median over the rounds:
 * on a busy machine a single pass of one route after the other compares different moments.
 */
export async function interleavedMedians<Runs extends (() => Promise<Measurement>)[]>(
  rounds: number,
  measurements: [...Runs],
): Promise<{ [Index in keyof Runs]: Measurement }> {
  const runs: Measurement[][] = measurements.map(() => []);
  for (let round = 0; round < rounds; round += 1) {
    for (const [index, run] of measurements.entries()) runs[index]?.push(await run());
  }
  return runs.map((each) => ({
    label: each[0]?.label ?? '',
    requestsPerSecond: median(each.map((run) => run.requestsPerSecond)),
    p99Ms: median(each.map((run) => run.p99Ms)),
  })) as { [Index in keyof Runs]: Measurement };
}

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

/** The yardstick for every API figure: a bare Fastify route on this machine, in the same run. */
export async function measureBareRoute(): Promise<Measurement> {
  const bare = Fastify();
  bare.get('/bare', () => ({ ok: true }));
  const url = await listen(bare);
  try {
    return await measure('bare Fastify route', `${url}/bare`);
  } finally {
    await bare.close();
  }
}

/**
 * The ceiling of `GET /api/account/`: a bare Fastify route making the route's own two round trips,
 * the same prepared statements through the same repositories and pool (the session's use, then the
 * account view), and none of the API's own Node work (token check, hooks, response schema,
 * security headers, compression, logging). What the API loses against it is that work (docs/decisions/api-request-cost.md).
 */
export async function measureAccountCeiling(databaseUrl: string): Promise<Measurement> {
  const database = await openDatabase({ kind: 'postgres', url: databaseUrl });
  const sessions = new AuthRepository(database.db);
  const accounts = new AccountRepository(database.db);
  // The bench's database holds the one member signed in for it.
  const [session] = rowsOf<{ user_id: string; id: string }>(
    await database.db.execute(sql`SELECT user_id, id FROM sessions LIMIT 1`),
  );
  if (session === undefined) throw new Error('The ceiling route needs a signed-in member.');
  const bare = Fastify();
  bare.get('/ceiling', async () => {
    // A use older than the epoch is never due, as in the route's steady state, which records a
    // use at most once a minute: the statement reads and writes nothing more than the route's.
    const now = new Date();
    const times = await sessions.useSession(session.user_id, session.id, {
      now,
      lastUsedBefore: new Date(0),
      lastUsedAfter: new Date(0),
      createdAfter: new Date(0),
    });
    if (times === undefined) throw new Error('The session of the bench member ended.');
    const view = await accounts.findAccountView(session.user_id);
    return { username: view?.user.username, stored: view?.storedBytes };
  });
  const url = await listen(bare);
  try {
    return await measure('bare route, the same 2 prepared statements', `${url}/ceiling`);
  } finally {
    await bare.close();
    await database.close();
  }
}

/** A fresh PostgreSQL database for one benchmark, dropped afterwards whatever happens. */
export async function withBenchDatabase<T>(work: (databaseUrl: string) => Promise<T>): Promise<T> {
  const name = `dental_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  try {
    await admin.connect();
  } catch (error) {
    throw new Error(
      `The benchmark runs on PostgreSQL and ${adminUrl} is not reachable. Start it (for example ` +
        '`pg_ctlcluster 15 main start`) or set BENCH_DATABASE_URL.',
      { cause: error },
    );
  }
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    return await work(url.toString());
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  }
}

export interface RunningApi {
  url: string;
  close(): Promise<void>;
}

/** The real API, as `npm start` builds it, on the given PostgreSQL database, with `env` on top;
 *  with `withJobs`, its job queue too, worked in this process (as `npm start` does). */
export async function startApi(
  databaseUrl: string,
  env: Record<string, string> = {},
  withJobs = false,
): Promise<RunningApi> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'dental-bench-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'silent',
    WEB_DIST: path.join(dataDir, 'no-web-build'),
    ...env,
  });
  const database = await openDatabase(databaseTarget(config));
  const mailer = createMailer(config);
  const jobs = withJobs
    ? await startJobQueue(database.db, jobQueueSettings(config), {
        error: (details, message) => {
          console.error(message, details);
        },
      })
    : undefined;
  const app = await buildApp({ config, db: database.db, mailer, jobs });
  const url = await listen(app);
  return {
    url,
    close: async () => {
      await jobs?.stop();
      await app.close();
      await mailer.close();
      await database.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function post<T>(url: string, body: unknown): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`POST ${url} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

/** A member signed up and logged in through the API; answers the bearer header. */
export async function loggedInMember(apiUrl: string): Promise<Record<string, string>> {
  const email = `bench-${randomBytes(4).toString('hex')}@example.com`;
  const password = `Bench-${randomBytes(8).toString('hex')}`;
  await post(`${apiUrl}${accountPaths.register}`, { email, username: 'Bench', password });
  const tokens = await post<TokenPair>(`${apiUrl}${accountPaths.login}`, {
    login_type: 'native',
    email,
    password,
  });
  return { authorization: `Bearer ${tokens.access}` };
}

/** What the web app asks for at a time (listPageSize in apps/web/src/lib/list-pages.tsx). */
export const webPageSize = 30;

/**
 * Adds photos through the API, as a member would (thumbnails included), four at a time, numbered
 * on from `from` (photo n is dated n days after 2020-01-01), until the member has `count`; each
 * is `jpeg` when given, else a plain 640 × 480 PNG.
 */
export async function addPhotos(
  listUrl: string,
  bearer: Record<string, string>,
  from: number,
  count: number,
  jpeg?: Buffer,
): Promise<void> {
  const png = await sharp({
    create: { width: 640, height: 480, channels: 3, background: { r: 90, g: 120, b: 200 } },
  })
    .png()
    .toBuffer();
  const imageLink =
    jpeg === undefined
      ? `data:image/png;base64,${png.toString('base64')}`
      : `data:image/jpeg;base64,${jpeg.toString('base64')}`;
  let next = from;
  const upload = async () => {
    while (next < count) {
      const index = next++;
      const day = new Date(Date.UTC(2020, 0, 1) + index * 24 * 60 * 60 * 1000);
      const res = await fetch(listUrl, {
        method: 'POST',
        headers: { ...bearer, 'content-type': 'application/json' },
        body: JSON.stringify({
          shoot_date: day.toISOString().slice(0, 10),
          photo_type: index % 2 === 0 ? 'X-ray' : 'Photo',
          note: `Bench photo ${String(index)}`,
          image_link: imageLink,
        }),
      });
      if (res.status !== 201) throw new Error(`Upload answered ${String(res.status)}`);
    }
  };
  await Promise.all(Array.from({ length: 4 }, upload));
}

/** Prints the measurements side by side, each compared with the first one (the reference). */
export function printComparison(
  title: string,
  reference: Measurement,
  others: Measurement[],
): void {
  const rows = [reference, ...others];
  const ratioLabel = (row: Measurement) => `ratio ${row.label} / ${reference.label}`;
  const width = Math.max(
    ...rows.map((row) => row.label.length),
    ...others.map((row) => ratioLabel(row).length),
  );
  const number = (value: number, digits: number) =>
    value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
  const lines = [
    title,
    `  ${''.padEnd(width)}  ${'requests/s'.padStart(12)}  ${'p99 latency'.padStart(12)}`,
    ...rows.map(
      (row) =>
        `  ${row.label.padEnd(width)}  ${number(row.requestsPerSecond, 0).padStart(12)}  ${`${number(row.p99Ms, 0)} ms`.padStart(12)}`,
    ),
    ...others.map(
      (row) =>
        `  ${ratioLabel(row).padEnd(width)}  ${`${number(row.requestsPerSecond / reference.requestsPerSecond, 3)}×`.padStart(12)}  ${`${number(row.p99Ms / Math.max(reference.p99Ms, 1), 1)}×`.padStart(12)}`,
    ),
  ];
  console.log(lines.join('\n'));
}

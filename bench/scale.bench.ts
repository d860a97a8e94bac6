// `npm run bench -- scale [--members 50] [--seconds 60] …`: many seeded members at once against
// two API processes behind nginx, on the database `npm run bench -- seed` filled; per route the
// requests, rate, latency percentiles and errors; then the plans of the hot routes' statements
// (docs/decisions/scale-bench.md).
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import sharp from 'sharp';
import {
  accountPaths,
  appointmentPaths,
  auditPaths,
  medicalRecordPaths,
  oralPhotoPaths,
  type TokenPair,
} from '@dental/contracts';
import {
  apiProcessCommand,
  closeAgents,
  loopback,
  request,
  running,
  startApiServer,
  startNginx,
  stopProcess,
  type Answer,
} from './api-processes';
import { startApi, webPageSize } from './harness';
import { scaleDatabaseUrl, seededEmail, seededPassword } from './seed';

const ports = { apiA: 3580, apiB: 3581, nginx: 3590 } as const;
const gatewayUrl = `http://${loopback}:${String(ports.nginx)}`;
/** Each member talks from its own loopback address, as members behind the proxy would. */
const memberAddress = (index: number) =>
  `127.0.${String(1 + Math.floor(index / 250))}.${String(1 + (index % 250))}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const say = (line: string) => {
  console.log(line);
};

interface ScaleOptions {
  database: string;
  members: number;
  seconds: number;
  /** One upload in this many rounds of a member's loop. */
  uploadEvery: number;
  /** A member's pause between two screens (0: as fast as answers come, the machine's limit). */
  thinkMs: number;
  /** Seconds of load on member 0's activity page (0: none). */
  activitySeconds: number;
}

function scaleOptions(args: string[]): ScaleOptions {
  const { values } = parseArgs({
    args,
    options: {
      database: { type: 'string', default: 'dental_scale' },
      members: { type: 'string', default: '50' },
      seconds: { type: 'string', default: '60' },
      'upload-every': { type: 'string', default: '10' },
      'think-ms': { type: 'string', default: '0' },
      'activity-seconds': { type: 'string', default: '0' },
    },
  });
  const count = (value: string, name: string, least: number) => {
    const parsed = Number(value);
    if (!Number.isSafeInteger(parsed) || parsed < least) {
      throw new Error(`--${name} takes a whole number of at least ${String(least)}.`);
    }
    return parsed;
  };
  return {
    database: values.database,
    members: count(values.members, 'members', 1),
    seconds: count(values.seconds, 'seconds', 1),
    uploadEvery: count(values['upload-every'], 'upload-every', 1),
    thinkMs: count(values['think-ms'], 'think-ms', 0),
    activitySeconds: count(values['activity-seconds'], 'activity-seconds', 0),
  };
}

// ---------------------------------------------------------------------------------------------
// What a member's screens ask for

const day = 24 * 60 * 60 * 1000;
const isoDate = (time: number) => new Date(time).toISOString().slice(0, 10);

/** The web app's first page of each list: its default range and 30 rows
 *  (docs/decisions/web-list-paging.md). */
function hotPaths(): Record<HotRoute, string> {
  const now = Date.now();
  const page = (filters: Record<string, string>) =>
    new URLSearchParams({ ...filters, limit: String(webPageSize) }).toString();
  return {
    account: accountPaths.account,
    'photo page': `${oralPhotoPaths.list}?${page({ photoType: 'all', startDate: isoDate(now - 61 * day), endDate: isoDate(now) })}`,
    records: `${medicalRecordPaths.list}?${page({ sequence: 'descending', startDate: isoDate(now - 61 * day), endDate: isoDate(now) })}`,
    appointments: `${appointmentPaths.list}?${page({ order: 'upcoming', startDate: isoDate(now), endDate: isoDate(now + 31 * day) })}`,
  };
}

const hotRoutes = ['account', 'photo page', 'records', 'appointments'] as const;
type HotRoute = (typeof hotRoutes)[number];
type Route = HotRoute | 'sign-in' | 'upload' | 'activity page';

export interface Sample {
  route: Route;
  /** performance.now() when the request was sent. */
  at: number;
  ms: number;
  ok: boolean;
  /** The answer's status; undefined when none came (a refused or broken connection). */
  status: number | undefined;
  /** Rows in a list's answer; undefined for any other answer. */
  rows: number | undefined;
}

const timed = async (
  route: Route,
  expected: number,
  send: () => Promise<Answer>,
  samples: Sample[],
): Promise<Answer | undefined> => {
  const started = performance.now();
  try {
    const answer = await send();
    samples.push({
      route,
      at: started,
      ms: performance.now() - started,
      ok: answer.status === expected,
      status: answer.status,
      rows: Array.isArray(answer.body) ? answer.body.length : undefined,
    });
    return answer;
  } catch {
    samples.push({
      route,
      at: started,
      ms: performance.now() - started,
      ok: false,
      status: undefined,
      rows: undefined,
    });
    return undefined;
  }
};

export async function signIn(
  baseUrl: string,
  index: number,
  address: string,
  samples: Sample[],
): Promise<string> {
  const answer = await timed(
    'sign-in',
    200,
    () =>
      request(baseUrl, address, 'POST', accountPaths.login, {
        body: { login_type: 'native', email: seededEmail(index), password: seededPassword },
      }),
    samples,
  );
  if (answer?.status !== 200) {
    throw new Error(`Sign-in of seeded member ${String(index)} answered ${String(answer?.status)}`);
  }
  return (answer.body as TokenPair).access;
}

/**
 * A member's pause before the next screen: `thinkMs` on average, drawn anew each time between
 * half and one and a half of it. Fixed pauses kept the members in step from their common start, so
 * that the proxy got 50 requests at once every second and 2 cores' queue made the tail.
 */
const pause = (thinkMs: number) => sleep(thinkMs * (0.5 + Math.random()));

/** One member's loop: the four screens in turn, and every `uploadEvery` rounds a photo. */
async function memberLoop(
  address: string,
  token: string,
  until: number,
  options: ScaleOptions,
  photo: string,
  samples: Sample[],
): Promise<void> {
  const paths = hotPaths();
  // Members signed in together; each opens the app at a moment of its own.
  await sleep(options.thinkMs * Math.random());
  for (let round = 1; Date.now() < until; round += 1) {
    for (const route of hotRoutes) {
      await timed(
        route,
        200,
        () => request(gatewayUrl, address, 'GET', paths[route], { token }),
        samples,
      );
      await pause(options.thinkMs);
    }
    if (round % options.uploadEvery === 0) {
      await timed(
        'upload',
        201,
        () =>
          request(gatewayUrl, address, 'POST', oralPhotoPaths.list, {
            token,
            body: {
              shoot_date: isoDate(Date.now()),
              photo_type: 'Photo',
              note: 'Scale bench photo',
              image_link: photo,
            },
          }),
        samples,
      );
    }
  }
}

/** The activity page's first screen. */
const activityPagePath = `${auditPaths.activity}?limit=20`;

/**
 * One member's activity page, `atOnce` requests at a time (ten: as on several of their devices)
 * for `seconds`; answers every request's sample and the seconds it took.
 */
export async function loadActivityPage(
  baseUrl: string,
  address: string,
  token: string,
  seconds: number,
  atOnce = 10,
): Promise<{ samples: Sample[]; seconds: number }> {
  const samples: Sample[] = [];
  const until = Date.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: atOnce }, async () => {
      while (Date.now() < until) {
        await timed(
          'activity page',
          200,
          () => request(baseUrl, address, 'GET', activityPagePath, { token }),
          samples,
        );
      }
    }),
  );
  return { samples, seconds: (performance.now() - started) / 1000 };
}

export function percentile(sorted: number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] ?? Number.NaN;
}

export function printRoutes(title: string, samples: Sample[], seconds: number): void {
  const header = [
    'route',
    'requests',
    'req/s',
    'p50 ms',
    'p95 ms',
    'p99 ms',
    'errors',
    'rows/answer',
  ];
  const rows = [header];
  const order: Route[] = ['sign-in', ...hotRoutes, 'upload', 'activity page'];
  const routes = order.filter((route) => samples.some((sample) => sample.route === route));
  for (const route of routes) {
    const mine = samples.filter((sample) => sample.route === route);
    const sorted = mine.map((sample) => sample.ms).sort((a, b) => a - b);
    const lists = mine.flatMap((sample) => (sample.rows === undefined ? [] : [sample.rows]));
    const rowsPerAnswer =
      lists.length === 0
        ? '-'
        : (lists.reduce((sum, rows) => sum + rows, 0) / lists.length).toFixed(1);
    rows.push([
      route,
      String(mine.length),
      route === 'sign-in' ? '-' : (mine.length / seconds).toFixed(1),
      percentile(sorted, 0.5).toFixed(1),
      percentile(sorted, 0.95).toFixed(1),
      percentile(sorted, 0.99).toFixed(1),
      String(mine.filter((sample) => !sample.ok).length),
      rowsPerAnswer,
    ]);
  }
  const failed = samples.filter((sample) => !sample.ok);
  const widths = header.map((_, column) =>
    Math.max(...rows.map((row) => row[column]?.length ?? 0)),
  );
  console.log(`\n${title}`);
  for (const row of rows) {
    console.log(
      `  ${row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join('  ')}`,
    );
  }
  if (failed.length > 0) console.log(`  errors by route and status: ${errorCounts(failed)}`);
}

/** 'upload 429 ×3, upload no answer ×1': what the errors column counts. */
function errorCounts(failed: Sample[]): string {
  const counts = new Map<string, number>();
  for (const { route, status } of failed) {
    const key = `${route} ${status === undefined ? 'no answer' : String(status)}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([key, count]) => `${key} ×${String(count)}`).join(', ');
}

// ---------------------------------------------------------------------------------------------
// The plans of the statements the hot routes run

interface Captured {
  route: string;
  text: string;
  values: unknown[];
}

/**
 * Runs each hot route once through an API in this process and records every statement its pool
 * sends (text and values), by watching node-postgres's Client.query; the API itself is the
 * real one (harness.startApi).
 */
async function captureStatements(
  databaseUrl: string,
  tokenSecret: string,
  routes: Record<string, string>,
  token: string,
): Promise<Captured[]> {
  const api = await startApi(databaseUrl, { TOKEN_SECRET: tokenSecret });
  const captured: Captured[] = [];
  let current: string | undefined;
  // eslint-disable-next-line @typescript-eslint/unbound-method -- put back as it was, and called with its own client below
  const original = pg.Client.prototype.query;
  // The wrapper only records; every call goes on to node-postgres unchanged.
  const recordingQuery = function (this: pg.Client, ...args: unknown[]) {
    const [config, values] = args;
    if (current !== undefined) {
      const text =
        typeof config === 'string'
          ? config
          : ((config as { text?: string } | null)?.text ?? undefined);
      const given =
        (Array.isArray(values) ? values : (config as { values?: unknown[] } | null)?.values) ?? [];
      if (text !== undefined) captured.push({ route: current, text, values: given });
    }
    return (original as (...all: unknown[]) => unknown).apply(this, args);
  };
  pg.Client.prototype.query = recordingQuery as typeof original;
  try {
    for (const [route, routePath] of Object.entries(routes)) {
      // Once unrecorded, so that what is recorded is the steady state, not a first use.
      const send = () =>
        fetch(`${api.url}${routePath}`, { headers: { authorization: `Bearer ${token}` } });
      await (await send()).arrayBuffer();
      current = route;
      const res = await send();
      await res.arrayBuffer();
      current = undefined;
      if (res.status !== 200) throw new Error(`${route} answered ${String(res.status)}`);
    }
  } finally {
    pg.Client.prototype.query = original;
    await api.close();
  }
  return captured;
}

/** A value as SQL literal text for EXECUTE's arguments (what node-postgres would send). */
function literal(client: pg.Client, value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (value instanceof Date) return client.escapeLiteral(value.toISOString());
  if (Array.isArray(value)) {
    return client.escapeLiteral(`{${value.map((item) => JSON.stringify(item)).join(',')}}`);
  }
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    return client.escapeLiteral(String(value));
  }
  return client.escapeLiteral(JSON.stringify(value));
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

function scans(node: PlanNode, found: Set<string>): Set<string> {
  if (node['Index Name'] !== undefined) found.add(`${node['Node Type']} ${node['Index Name']}`);
  else if (node['Node Type'] === 'Seq Scan') found.add(`Seq Scan ${node['Relation Name'] ?? ''}`);
  for (const child of node.Plans ?? []) scans(child, found);
  return found;
}

/** Transaction control, and appends, whose plan reads nothing (an audit row's insert). */
const scansNothing = (text: string) =>
  /^\s*(begin|commit|rollback|savepoint|release|set |select pg_advisory|insert)/i.test(text);

/**
 * EXPLAIN ANALYZE of each statement, prepared and executed with the captured values, under a
 * custom plan and under the generic plan a prepared statement may switch to; in a transaction
 * that is rolled back, since some of them write.
 */
async function explainStatements(databaseUrl: string, captured: Captured[]): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const seen = new Set<string>();
  console.log(
    '\nPlans of the hot routes’ statements (custom | generic plan; executed, rolled back)',
  );
  try {
    for (const [index, statement] of captured.entries()) {
      if (scansNothing(statement.text) || seen.has(statement.text)) continue;
      seen.add(statement.text);
      const arguments_ = statement.values.map((value) => literal(client, value)).join(', ');
      const execute = `EXECUTE scale_${String(index)}${arguments_ === '' ? '' : `(${arguments_})`}`;
      const planWith = async (settings: string[]): Promise<string> => {
        await client.query('BEGIN');
        try {
          for (const setting of settings) await client.query(`SET LOCAL ${setting}`);
          await client.query(`PREPARE scale_${String(index)} AS ${statement.text}`);
          const { rows } = await client.query<{
            'QUERY PLAN': [{ Plan: PlanNode; 'Execution Time': number }];
          }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${execute}`);
          const [plan] = rows[0]?.['QUERY PLAN'] ?? [];
          return plan === undefined
            ? 'no plan'
            : `${[...scans(plan.Plan, new Set())].join(', ') || 'no table scan'} (${plan['Execution Time'].toFixed(2)} ms)`;
        } catch (error) {
          return `not explained: ${error instanceof Error ? error.message : String(error)}`;
        } finally {
          await client.query('ROLLBACK');
          await client.query('DEALLOCATE ALL');
        }
      };
      const plans = [
        await planWith(['plan_cache_mode = force_custom_plan']),
        await planWith(['plan_cache_mode = force_generic_plan']),
      ];
      // A sequential scan of a table of a few rows is the planner's right choice; with sequential
      // scans priced out it shows whether an index would serve the statement once the table grows.
      if (plans.some((plan) => plan.includes('Seq Scan'))) {
        plans.push(
          await planWith(['plan_cache_mode = force_generic_plan', 'enable_seqscan = off']),
        );
      }
      const sqlText = statement.text.replace(/\s+/g, ' ');
      console.log(
        `  [${statement.route}] ${sqlText.slice(0, 140)}${sqlText.length > 140 ? '…' : ''}`,
      );
      console.log(`      custom:  ${plans[0] ?? ''}\n      generic: ${plans[1] ?? ''}`);
      if (plans[2] !== undefined) console.log(`      generic, seq scans off: ${plans[2]}`);
    }
  } finally {
    await client.end();
  }
}

// ---------------------------------------------------------------------------------------------
// The bench

/** The environment of an API process on the scale database, answering at `publicUrl`. */
export function scaleApiEnv(
  databaseUrl: string,
  tokenSecret: string,
  publicUrl: string,
  workDir: string,
): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    HOST: loopback,
    DATABASE_URL: databaseUrl,
    TOKEN_SECRET: tokenSecret,
    PUBLIC_URL: publicUrl,
    TRUST_PROXY: loopback,
    // The bench's members sign in at once from a few addresses; the limits are not under test.
    RATE_LIMIT_PER_IP: '1000000',
    UPLOADS_PER_MINUTE: '10000',
    LOG_LEVEL: 'warn',
    WEB_DIST: path.join(workDir, 'no-web-build'),
    DENTAL_AI_SHIPPED_MODELS: 'off',
  };
}

export async function scaleBench(args: string[]): Promise<void> {
  const options = scaleOptions(args);
  const databaseUrl = scaleDatabaseUrl(options.database);
  const probe = new pg.Client({ connectionString: databaseUrl });
  await probe.connect().catch((error: unknown) => {
    throw new Error(`No scale database: run \`npm run bench -- seed\` first.`, { cause: error });
  });
  const { rows: counted } = await probe.query<{ members: string; photos: string; audit: string }>(
    `SELECT (SELECT count(*) FROM users WHERE email LIKE 'scale-%') AS members,
            (SELECT count(*) FROM oral_photos) AS photos,
            (SELECT count(*) FROM audit_events) AS audit`,
  );
  await probe.end();
  const seeded = Number(counted[0]?.members ?? 0);
  if (seeded < 2) throw new Error('The scale database holds no seeded members.');
  const load = os.loadavg();
  say(
    `${options.database}: ${seeded.toLocaleString('en-US')} members, ${Number(counted[0]?.photos).toLocaleString('en-US')} photos, ${Number(counted[0]?.audit).toLocaleString('en-US')} audit rows; load average ${load.map((value) => value.toFixed(2)).join(' ')} on ${String(os.cpus().length)} CPUs`,
  );

  // Members 1… at random (member 0 is the one with the long activity trail).
  const chosen = new Set<number>();
  while (chosen.size < Math.min(options.members, seeded - 1)) {
    chosen.add(1 + Math.floor(Math.random() * (seeded - 1)));
  }

  const workDir = await mkdtemp(path.join(os.tmpdir(), 'dental-scale-'));
  const tokenSecret = randomBytes(32).toString('base64url');
  const sharedEnv = scaleApiEnv(databaseUrl, tokenSecret, gatewayUrl, workDir);
  try {
    const commandFor = await apiProcessCommand();
    // One after the other: two first starts at once on a fresh database set up the job queue's
    // tables at once and can deadlock.
    for (const port of [ports.apiA, ports.apiB]) {
      await startApiServer(commandFor, port, path.join(workDir, `api-${String(port)}`), sharedEnv)
        .ready;
    }
    await startNginx(workDir, ports.nginx, [ports.apiA, ports.apiB], say, sharedEnv);

    const png = await sharp({
      create: { width: 640, height: 480, channels: 3, background: { r: 200, g: 90, b: 90 } },
    })
      .jpeg()
      .toBuffer();
    const photo = `data:image/jpeg;base64,${png.toString('base64')}`;

    const signIns: Sample[] = [];
    const members = [...chosen];
    const signInStarted = performance.now();
    const tokens = await Promise.all(
      members.map((index, position) => signIn(gatewayUrl, index, memberAddress(position), signIns)),
    );
    const signInSeconds = (performance.now() - signInStarted) / 1000;
    printRoutes(
      `Sign-in of ${String(members.length)} members at once (${signInSeconds.toFixed(1)} s in all; argon2id per sign-in)`,
      signIns,
      signInSeconds,
    );

    // The first seconds are not counted: each API process compiles its hot paths then.
    const warmUpSeconds = 5;
    const samples: Sample[] = [];
    const until = Date.now() + (warmUpSeconds + options.seconds) * 1000;
    const measuredFrom = performance.now() + warmUpSeconds * 1000;
    await Promise.all(
      tokens.map((token, position) =>
        memberLoop(memberAddress(position), token, until, options, photo, samples),
      ),
    );
    const loadSeconds = (performance.now() - measuredFrom) / 1000;
    printRoutes(
      `${String(members.length)} members for ${loadSeconds.toFixed(1)} s after ${String(warmUpSeconds)} s of warm-up, through nginx and two API processes (upload every ${String(options.uploadEvery)} rounds, ${String(options.thinkMs)} ms between screens on average; goal for the four reads: p99 < 50 ms, no error)`,
      samples.filter((sample) => sample.at >= measuredFrom),
      loadSeconds,
    );

    const heavy = await signIn(gatewayUrl, 0, memberAddress(members.length), []);
    if (options.activitySeconds > 0) {
      const activity = await loadActivityPage(
        gatewayUrl,
        memberAddress(members.length),
        heavy,
        options.activitySeconds,
      );
      printRoutes('Member 0’s activity page (10 at once)', activity.samples, activity.seconds);
    }
    await Promise.all([...running].map((managed) => stopProcess(managed)));

    const captured = await captureStatements(
      databaseUrl,
      tokenSecret,
      { ...hotPaths(), 'activity page': activityPagePath },
      heavy,
    );
    await explainStatements(databaseUrl, captured);
  } finally {
    await Promise.all([...running].map((managed) => stopProcess(managed)));
    closeAgents();
    await rm(workDir, { recursive: true, force: true });
  }
}

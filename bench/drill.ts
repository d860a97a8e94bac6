// `npm run drill`: the scale-out drill (docs/decisions/scale-out-drill.md). On this
// machine, loopback only: PostgreSQL (a server of the drill's own, initdb on a free port), an S3
// server, two API processes with WORKERS=off behind nginx, two worker processes; a bounded load
// from several members; kill -9 of one API and one worker mid-load, both restarted, then a crash
// and restart of PostgreSQL (docs/decisions/database-restarts.md); then the invariants, as a
// table. Exits 1 when one breaks.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- s3rver ships no types; the API project's declaration covers it
/// <reference path="../apps/api/test/mocks/s3rver.d.ts" />
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import sharp from 'sharp';
import { accountPaths, appointmentPaths, oralPhotoPaths, type TokenPair } from '@dental/contracts';
import { S3BlobStore } from '../apps/api/src/adapters/blob-store/s3-blob-store';
import { systemClock } from '../apps/api/src/clock';
import { openDatabase } from '../apps/api/src/db/client';
import { sweptPrefixes } from '../apps/api/src/modules/files/file-storage';
import { FilesRepository } from '../apps/api/src/modules/files/files.repository';
import { OrphanSweep } from '../apps/api/src/modules/files/orphan-sweep';
import { startS3TestServer } from '../apps/api/test/mocks/s3-test-server';
import { startPostgresCluster } from '../apps/api/test/support/postgres-cluster';
import {
  isSignUpConfirmation,
  recipients,
  startSmtpInbox,
  type SmtpInbox,
} from '../apps/api/test/smtp-inbox';
import {
  apiProcessCommand,
  closeAgents,
  type Answer,
  loopback,
  request,
  running,
  startApiServer,
  startNginx,
  startProcess,
  stopProcess,
} from './api-processes';

/** Seconds of load (DRILL_SECONDS, 20–300): the drill is bounded in time and in requests. */
const loadSeconds = Math.min(300, Math.max(20, Number(process.env.DRILL_SECONDS ?? 45)));
const memberCount = 6;
/**
 * Requests one member starts per second at most: the load is bounded by rate, not by count, so
 * that however fast the machine answers it still runs while the killed API is back up.
 */
const requestsPerSecondPerMember = 4;
/** The load goes on at most this long after its planned end while killed processes restart. */
const restartAllowanceSeconds = 240;
/** Per client address and action; low so that the cross-process check reaches it quickly. */
const ratePerIp = 6;
/** Sign-ins one member makes under load (its first included): below the per-address limit. */
const signInsPerMember = ratePerIp - 1;
/** How long a killed reminder attempt stays claimed before another worker retries it. */
const reminderAttemptSeconds = 10;
/** How long PostgreSQL stays down after its crash, and how soon the APIs must answer after. */
const databaseDownSeconds = 3;
const databaseRecoverySeconds = 10;

const ports = { apiA: 3480, apiB: 3481, nginx: 3490 } as const;
const gatewayUrl = `http://${loopback}:${ports.nginx}`;
const apiUrl = (port: number) => `http://${loopback}:${port}`;
/** Each member talks from its own loopback address, as members behind the proxy would. */
const memberAddress = (index: number) => `127.0.0.${20 + index}`;
const rateLimitAddress = '127.0.0.250';
const sessionCheckAddress = '127.0.0.251';

const startedAt = Date.now();
const elapsed = () => ((Date.now() - startedAt) / 1000).toFixed(1).padStart(6);
const say = (line: string) => {
  console.log(`[${elapsed()} s] ${line}`);
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------------
// HTTP from a chosen loopback address

/** Seconds from `since` until the API process on `port` is ready (Infinity after 60 s). */
async function secondsUntilReady(port: number, since: number): Promise<number> {
  while (Date.now() - since < 60_000) {
    const ready = await request(apiUrl(port), loopback, 'GET', '/api/health/ready').catch(
      () => undefined,
    );
    if (ready?.status === 200) return (Date.now() - since) / 1000;
    await sleep(100);
  }
  return Number.POSITIVE_INFINITY;
}

// ---------------------------------------------------------------------------------------------
// The load

type Operation = 'sign-in' | 'upload' | 'list-photos' | 'list-appointments' | 'add-appointment';

interface Outcome {
  member: number;
  operation: Operation;
  start: number;
  end: number;
  status: number;
  upstream: string;
  retryAfter?: string;
  error?: string;
  /** The id of an acknowledged write. */
  id?: string;
}

interface Member {
  index: number;
  email: string;
  password: string;
  token: string;
  refresh: string;
  signIns: number;
}

const expectedStatus: Record<Operation, number> = {
  'sign-in': 200,
  upload: 201,
  'list-photos': 200,
  'list-appointments': 200,
  'add-appointment': 201,
};

const idOf = (body: unknown): string | undefined =>
  typeof body === 'object' && body !== null && 'id' in body && typeof body.id === 'string'
    ? body.id
    : undefined;

async function runOperation(member: Member, operation: Operation, photo: string): Promise<Answer> {
  const from = memberAddress(member.index);
  const token = member.token;
  switch (operation) {
    case 'sign-in': {
      member.signIns += 1;
      const answer = await request(gatewayUrl, from, 'POST', accountPaths.login, {
        body: { login_type: 'native', email: member.email, password: member.password },
      });
      if (answer.status === 200) {
        const tokens = answer.body as TokenPair;
        member.token = tokens.access;
        member.refresh = tokens.refresh;
      }
      return answer;
    }
    case 'upload':
      return request(gatewayUrl, from, 'POST', oralPhotoPaths.list, {
        token,
        body: {
          shoot_date: new Date().toISOString().slice(0, 10),
          photo_type: 'Photo',
          note: 'Drill photo',
          image_link: photo,
        },
      });
    case 'add-appointment': {
      // The reminder falls due while the drill runs (alert times are free epoch seconds).
      const nowSeconds = Math.floor(Date.now() / 1000);
      return request(gatewayUrl, from, 'POST', appointmentPaths.list, {
        token,
        body: {
          appointment_date: new Date((nowSeconds + 7200) * 1000).toISOString(),
          note: 'Drill appointment',
          email_alert: true,
          alert_before: [nowSeconds + 5 + Math.floor(Math.random() * 20)],
          time_zone: 'UTC',
        },
      });
    }
    case 'list-photos':
      return request(gatewayUrl, from, 'GET', oralPhotoPaths.list, { token });
    case 'list-appointments':
      return request(gatewayUrl, from, 'GET', appointmentPaths.list, { token });
  }
}

const rotation: Operation[] = [
  'list-photos',
  'add-appointment',
  'upload',
  'list-appointments',
  'upload',
  'add-appointment',
  'list-photos',
];

async function memberLoad(
  member: Member,
  photo: string,
  /** When to stop, asked before each request: the end moves while killed processes restart. */
  until: () => number,
  outcomes: Outcome[],
): Promise<void> {
  const first = Date.now();
  for (let step = 0; Date.now() < until(); step += 1) {
    await sleep(first + (step * 1000) / requestsPerSecondPerMember - Date.now());
    const operation: Operation =
      step % 12 === 11 && member.signIns < signInsPerMember
        ? 'sign-in'
        : (rotation[step % rotation.length] ?? 'list-photos');
    const start = Date.now();
    try {
      const answer = await runOperation(member, operation, photo);
      const id = answer.status === expectedStatus[operation] ? idOf(answer.body) : undefined;
      outcomes.push({
        member: member.index,
        operation,
        start,
        end: Date.now(),
        status: answer.status,
        upstream: answer.upstream,
        ...(answer.retryAfter === undefined ? {} : { retryAfter: answer.retryAfter }),
        ...(id === undefined || operation === 'sign-in' ? {} : { id }),
      });
    } catch (error) {
      outcomes.push({
        member: member.index,
        operation,
        start,
        end: Date.now(),
        status: 0,
        upstream: '',
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The drill

interface Check {
  invariant: string;
  expected: string;
  observed: string;
  ok: boolean;
}

function printTable(title: string, rows: string[][]): void {
  const widths = rows[0]?.map((_, column) =>
    Math.max(...rows.map((row) => row[column]?.length ?? 0)),
  );
  const line = (row: string[]) =>
    `| ${row.map((cell, column) => cell.padEnd(widths?.[column] ?? 0)).join(' | ')} |`;
  console.log(`\n${title}`);
  console.log(line(rows[0] ?? []));
  console.log(`|${(widths ?? []).map((width) => '-'.repeat(width + 2)).join('|')}|`);
  for (const row of rows.slice(1)) console.log(line(row));
}

/** The key of the confirmation link the sign-up mailed to `email`, once the mail has arrived. */
async function confirmationKey(smtp: SmtpInbox, email: string): Promise<string> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const mail = smtp.messages.find(
      (message) =>
        isSignUpConfirmation(message) && recipients(message).includes(email.toLowerCase()),
    );
    const key = /\/confirm-email\?key=([^\s"&<]+)/.exec(mail?.text ?? '')?.[1];
    if (key !== undefined) return decodeURIComponent(key);
    await sleep(100);
  }
  throw new Error(`no confirmation e-mail to ${email} within 30 s`);
}

async function main(): Promise<number> {
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'dental-drill-'));
  const cleanups: (() => Promise<unknown>)[] = [
    () => rm(workDir, { recursive: true, force: true }),
  ];
  const checks: Check[] = [];
  try {
    // PostgreSQL: a server of the drill's own, since the drill crashes it.
    const cluster = await startPostgresCluster();
    cleanups.unshift(() => cluster.remove());
    const databaseUrl = new URL(cluster.url);
    say(`PostgreSQL at ${databaseUrl.host} (initdb under ${os.tmpdir()})`);

    const s3 = await startS3TestServer('dental-drill');
    cleanups.unshift(() => s3.close());
    const smtp = await startSmtpInbox();
    cleanups.unshift(() => smtp.close());
    say(`S3 (s3rver) at ${s3.options.endpoint ?? ''}, SMTP sink at ${smtp.url}`);

    const sharedEnv: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      HOST: loopback,
      DATABASE_URL: databaseUrl.toString(),
      // Every process signs and checks tokens with the same secret.
      TOKEN_SECRET: randomBytes(32).toString('base64url'),
      PUBLIC_URL: gatewayUrl,
      SMTP_URL: smtp.url,
      S3_BUCKET: s3.options.bucket,
      S3_REGION: s3.options.region,
      S3_ENDPOINT: s3.options.endpoint,
      S3_ACCESS_KEY_ID: s3.options.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.options.secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
      TRUST_PROXY: loopback,
      RATE_LIMIT_PER_IP: String(ratePerIp),
      // The load uploads faster than a member would; the per-member upload limit is not under test.
      UPLOADS_PER_MINUTE: '10000',
      LOG_LEVEL: 'warn',
      WEB_DIST: path.join(workDir, 'no-web-build'),
      DENTAL_AI_SHIPPED_MODELS: 'off',
      DENTAL_AI_THREADS: '1',
      JOB_POLL_SECONDS: '1',
      REMINDER_ATTEMPT_SECONDS: String(reminderAttemptSeconds),
      REMINDER_RETRY_DELAY_SECONDS: '1',
    };
    const commandFor = await apiProcessCommand();
    let generation = 0;
    const startApi = (port: number) => {
      generation += 1;
      const dataDir = path.join(workDir, `api-${String(port)}-${String(generation)}`);
      return startApiServer(commandFor, port, dataDir, sharedEnv);
    };
    const startWorker = (name: string) => {
      generation += 1;
      const dataDir = path.join(workDir, `${name}-${String(generation)}`);
      const { command, args } = commandFor('worker');
      // Each worker process sends from its own address, so every reminder names its sender.
      const sender = `${name}-${String(generation)}@drill.example`;
      const started = startProcess(
        name,
        command,
        args,
        { ...sharedEnv, DATA_DIR: dataDir, MAIL_FROM: `Drill <${sender}>` },
        `${dataDir}.log`,
        /Job worker started/,
      );
      return Object.assign(started, { sender });
    };
    cleanups.unshift(async () => {
      await Promise.all([...running].map((managed) => stopProcess(managed)));
    });

    // The first API process migrates; the others find the schema in place.
    say('starting API :3480 (migrates the database)');
    let apiA = startApi(ports.apiA);
    await apiA.ready;
    say('starting API :3481 and two workers');
    const apiB = startApi(ports.apiB);
    let worker1 = startWorker('worker-1');
    const worker2 = startWorker('worker-2');
    await Promise.all([apiB.ready, worker1.ready, worker2.ready]);

    await startNginx(workDir, ports.nginx, [ports.apiA, ports.apiB], say, sharedEnv);
    say(`nginx at ${gatewayUrl} in front of :${ports.apiA} and :${ports.apiB}`);

    // Members, signed up and signed in through the proxy.
    const png = await sharp({
      create: { width: 160, height: 120, channels: 3, background: { r: 200, g: 90, b: 90 } },
    })
      .png()
      .toBuffer();
    const photo = `data:image/png;base64,${png.toString('base64')}`;
    const members: Member[] = [];
    for (let index = 0; index < memberCount; index += 1) {
      const email = `drill-${String(index)}-${randomBytes(3).toString('hex')}@example.com`;
      const password = `Drill-${randomBytes(8).toString('hex')}`;
      const from = memberAddress(index);
      const registered = await request(gatewayUrl, from, 'POST', accountPaths.register, {
        body: { email, username: `Drill ${String(index)}`, password },
      });
      if (registered.status !== 201 && registered.status !== 200) {
        throw new Error(`sign-up answered ${String(registered.status)}`);
      }
      // Reminders go only to a confirmed address (docs/decisions/email-confirmation.md): the
      // member confirms theirs with the link the sign-up mailed, as a member would.
      const confirmed = await request(gatewayUrl, from, 'POST', accountPaths.confirmEmail, {
        body: { key: await confirmationKey(smtp, email) },
      });
      if (confirmed.status !== 200) {
        throw new Error(`the e-mail confirmation answered ${String(confirmed.status)}`);
      }
      const login = await request(gatewayUrl, from, 'POST', accountPaths.login, {
        body: { login_type: 'native', email, password },
      });
      if (login.status !== 200) throw new Error(`sign-in answered ${String(login.status)}`);
      const tokens = login.body as TokenPair;
      members.push({
        index,
        email,
        password,
        token: tokens.access,
        refresh: tokens.refresh,
        signIns: 1,
      });
    }
    const tokenBeforeKill = members[0]?.token ?? '';

    // The load, with the kills and restarts on timers beside it. It runs for loadSeconds, and on
    // until both restarted processes have been up for a while, so the restarted API takes load.
    const outcomes: Outcome[] = [];
    const loadStart = Date.now();
    const loadEnd = loadStart + loadSeconds * 1000;
    const restarts: { doneAt?: number } = {};
    const until = () =>
      restarts.doneAt === undefined
        ? loadEnd + restartAllowanceSeconds * 1000
        : Math.max(loadEnd, restarts.doneAt + 10_000);
    say(
      `load: ${String(memberCount)} members for ${String(loadSeconds)} s (at most ${String(requestsPerSecondPerMember)} requests a second each)`,
    );
    const load = Promise.all(members.map((member) => memberLoad(member, photo, until, outcomes)));
    /** From the kill signal until its exit was seen: a request that reached it then may fail. */
    const apiKill = { signalled: 0, exited: 0 };
    let apiRestartedAt = 0;
    const killApi = async () => {
      await sleep(loadSeconds * 300);
      const killed = apiA;
      apiKill.signalled = Date.now();
      killed.child.kill('SIGKILL');
      await killed.exited;
      apiKill.exited = Date.now();
      say(`kill -9 API :${String(ports.apiA)} (pid ${String(killed.child.pid)})`);
      await sleep(2000);
      apiA = startApi(ports.apiA);
      await apiA.ready;
      apiRestartedAt = Date.now();
      say(`API :${String(ports.apiA)} restarted`);
    };
    let workerKilledAt = 0;
    let killedSender = '';
    const killWorker = async () => {
      await sleep(loadSeconds * 500);
      const killed = worker1;
      killedSender = killed.sender;
      workerKilledAt = Date.now();
      killed.child.kill('SIGKILL');
      await killed.exited;
      say(`kill -9 worker-1 (pid ${String(killed.child.pid)})`);
      await sleep(2000);
      worker1 = startWorker('worker-1');
      await worker1.ready;
      say('worker-1 restarted');
    };
    await Promise.all([killApi(), killWorker()]);
    // Then PostgreSQL crashes under the same load and is started again a few seconds later
    // (docs/decisions/database-restarts.md): no process may exit, the APIs answer 503 meanwhile.
    await sleep(3000);
    const runningAtCrash = [apiA, apiB, worker1, worker2];
    const databaseDownAt = Date.now();
    await cluster.stopImmediately();
    say('PostgreSQL stopped (pg_ctl stop -m immediate)');
    await sleep(databaseDownSeconds * 1000);
    await cluster.start();
    const databaseBackAt = Date.now();
    say('PostgreSQL started again');
    const readyAfterSeconds = await Promise.all(
      [ports.apiA, ports.apiB].map((port) => secondsUntilReady(port, databaseBackAt)),
    );
    restarts.doneAt = Date.now();
    await load;
    say(`load done: ${String(outcomes.length)} requests`);

    // Failures: only requests in flight on the killed API process, answered 502 by nginx (a
    // request not yet sent there went to the other process).
    const killedUpstream = `${loopback}:${String(ports.apiA)}`;
    const failures = outcomes.filter(
      (outcome) => outcome.status !== expectedStatus[outcome.operation],
    );
    const inFlightAtKill = (outcome: Outcome) =>
      outcome.start <= apiKill.exited && outcome.end >= apiKill.signalled;
    const databaseAway = (outcome: Outcome) =>
      outcome.status === 503 &&
      outcome.retryAfter !== undefined &&
      outcome.end >= databaseDownAt &&
      outcome.start <= databaseBackAt + databaseRecoverySeconds * 1000;
    const answered503 = failures.filter(databaseAway).length;
    const unexplained = failures.filter(
      (outcome) =>
        !(
          (outcome.status === 502 &&
            outcome.upstream === killedUpstream &&
            inFlightAtKill(outcome)) ||
          databaseAway(outcome)
        ),
    );
    checks.push({
      invariant: 'failed requests: in flight on the killed API, or 503 while PostgreSQL was away',
      expected: 'all failures',
      observed: `${String(failures.length)} failed of ${String(outcomes.length)} (${String(outcomes.filter(inFlightAtKill).length)} in flight at the kill, ${String(answered503)} answered 503 with Retry-After); ${String(unexplained.length)} other`,
      ok: unexplained.length === 0,
    });
    const exitedAtCrash = runningAtCrash.filter(
      (managed) => managed.child.exitCode !== null || managed.child.signalCode !== null,
    );
    checks.push({
      invariant: 'processes that exited when PostgreSQL crashed',
      expected: `0 of ${String(runningAtCrash.length)}`,
      observed: `${String(exitedAtCrash.length)} of ${String(runningAtCrash.length)}${exitedAtCrash.map((managed) => ` ${managed.name}`).join(',')}`,
      ok: exitedAtCrash.length === 0,
    });
    checks.push({
      invariant: 'APIs ready again after PostgreSQL is back',
      expected: `<= ${String(databaseRecoverySeconds)} s each`,
      observed: readyAfterSeconds
        .map(
          (seconds, index) =>
            `:${String(index === 0 ? ports.apiA : ports.apiB)} ${seconds.toFixed(1)} s`,
        )
        .join(', '),
      ok: readyAfterSeconds.every((seconds) => seconds <= databaseRecoverySeconds),
    });
    for (const managed of exitedAtCrash) {
      say(`  ${managed.name} exited; the end of its output:\n${managed.output().slice(-1500)}`);
    }
    for (const outcome of unexplained.slice(0, 10)) {
      say(`  unexplained failure: ${JSON.stringify(outcome)}`);
    }
    const servedAfterRestart = outcomes.filter(
      (outcome) =>
        outcome.start >= apiRestartedAt &&
        outcome.upstream.split(', ').at(-1) === killedUpstream &&
        outcome.status === expectedStatus[outcome.operation],
    ).length;
    checks.push({
      invariant: 'restarted API serves again behind nginx',
      expected: '> 0 requests',
      observed: `${String(servedAfterRestart)} requests`,
      ok: servedAfterRestart > 0,
    });

    // Reminders: every due reminder sent, once. The one exception the design allows
    // (docs/decisions/reminder-delivery.md): a worker killed after the mail server accepted a
    // reminder and before the worker recorded it as sent; another worker sends it again.
    const db = await openDatabase({ kind: 'postgres', url: databaseUrl.toString() });
    cleanups.unshift(() => db.close());
    const pool = new pg.Pool({ connectionString: databaseUrl.toString(), max: 2 });
    cleanups.unshift(() => pool.end());
    const reminderRows = async () =>
      (
        await pool.query<{ appointment_id: string; status: string; due: boolean }>(
          'SELECT appointment_id, status, alert_time <= now() AS due FROM reminders',
        )
      ).rows;
    /** The sender of every reminder copy the mail server received, per appointment. */
    const copiesPerAppointment = () => {
      const copies = new Map<string, string[]>();
      for (const mail of smtp.messages) {
        const match = /\/appointments\/([0-9a-f-]{36})\/edit/.exec(mail.text ?? '');
        if (match?.[1] === undefined) continue;
        const sender = mail.from?.value[0]?.address ?? '';
        copies.set(match[1], [...(copies.get(match[1]) ?? []), sender]);
      }
      return copies;
    };
    // The last alert is at most 25 s ahead of the last appointment; a killed attempt is retried
    // within about two attempt lengths.
    const reminderDeadline = Date.now() + 25_000 + 6 * reminderAttemptSeconds * 1000;
    say('waiting for every due reminder to be sent');
    let rows = await reminderRows();
    while (Date.now() < reminderDeadline) {
      rows = await reminderRows();
      const copies = copiesPerAppointment();
      if (rows.every((row) => row.status === 'sent' && copies.has(row.appointment_id))) break;
      await sleep(1000);
    }
    // A late duplicate would arrive within one attempt length.
    await sleep(2000);
    rows = await reminderRows();
    const copies = copiesPerAppointment();
    const rowAppointments = new Set(rows.map((row) => row.appointment_id));
    const sent = rows.filter((row) => row.status === 'sent');
    const once = sent.filter((row) => copies.get(row.appointment_id)?.length === 1).length;
    /** Two copies: one from the killed worker, which died before recording it, one from another. */
    const resentAfterKill = sent.filter((row) => {
      const senders = copies.get(row.appointment_id) ?? [];
      return (
        senders.length === 2 && senders.filter((sender) => sender === killedSender).length === 1
      );
    }).length;
    const noCopy = sent.filter((row) => !copies.has(row.appointment_id)).length;
    const otherDuplicates = sent.length - once - resentAfterKill - noCopy;
    const notSent = rows.length - sent.length;
    const stray = [...copies.keys()].filter((id) => !rowAppointments.has(id)).length;
    const acknowledgedWithout = outcomes.filter(
      (outcome) =>
        outcome.operation === 'add-appointment' &&
        outcome.id !== undefined &&
        !rowAppointments.has(outcome.id),
    ).length;
    checks.push({
      invariant: 'reminders sent exactly once',
      expected: `${String(rows.length)} of ${String(rows.length)}; 0 other duplicates`,
      observed:
        `${String(sent.length)} sent: ${String(once)} once, ${String(resentAfterKill)} again ` +
        `after the kill (first copy from the killed worker), ${String(otherDuplicates)} other ` +
        `duplicates, ${String(noCopy)} without a copy; ${String(notSent)} not sent, ${String(stray)} stray, ` +
        `${String(acknowledgedWithout)} acknowledged without a reminder`,
      ok:
        rows.length > 0 &&
        rows.every((row) => row.due) &&
        notSent === 0 &&
        noCopy === 0 &&
        otherDuplicates === 0 &&
        stray === 0 &&
        acknowledgedWithout === 0,
    });

    // Orphans: what the killed API left in the bucket, then the sweep (no grace period: the load
    // is over, no upload is in flight).
    const blobs = new S3BlobStore(s3.options);
    cleanups.unshift(() => {
      blobs.close();
      return Promise.resolve();
    });
    const files = new FilesRepository(db.db);
    const countOrphans = async () => {
      const keys: string[] = [];
      for (const prefix of sweptPrefixes) {
        for await (const blob of blobs.list(prefix)) keys.push(blob.key);
      }
      const referenced = await files.referencedKeys(keys);
      return { total: keys.length, orphans: keys.filter((key) => !referenced.has(key)).length };
    };
    const before = await countOrphans();
    const swept = await new OrphanSweep(blobs, files, systemClock, { graceMs: 0 }).sweep();
    const after = await countOrphans();
    checks.push({
      invariant: 'orphaned blobs after the sweep',
      expected: '0',
      observed: `${String(after.orphans)} (${String(before.orphans)} before, ${String(swept.removedBlobs)} swept; ${String(after.total)} blobs kept)`,
      ok: after.orphans === 0,
    });

    // Acknowledged writes: every 201 is readable, photo bytes included, after the sweep.
    const memberOf = (index: number): Member => {
      const found = members[index];
      if (found === undefined) throw new Error(`No member ${String(index)}`);
      return found;
    };
    let lost = 0;
    let acknowledged = 0;
    for (const outcome of outcomes) {
      if (outcome.id === undefined) continue;
      acknowledged += 1;
      const member = memberOf(outcome.member);
      const from = memberAddress(member.index);
      if (outcome.operation === 'add-appointment') {
        const read = await request(gatewayUrl, from, 'GET', appointmentPaths.one(outcome.id), {
          token: member.token,
        });
        if (read.status !== 200) lost += 1;
      } else {
        const read = await request(gatewayUrl, from, 'GET', oralPhotoPaths.one(outcome.id), {
          token: member.token,
        });
        const link = (read.body as { image_link?: string }).image_link ?? '';
        const bytes =
          read.status === 200
            ? await request(
                gatewayUrl,
                from,
                'GET',
                link.startsWith('http') ? link.slice(gatewayUrl.length) : link,
              )
            : undefined;
        if (bytes?.status !== 200) lost += 1;
      }
    }
    checks.push({
      invariant: 'acknowledged writes lost',
      expected: '0',
      observed: `${String(lost)} of ${String(acknowledged)} (photos and appointments)`,
      ok: lost === 0 && acknowledged > 0,
    });

    // Sessions: a token from one process works on the other, also one minted before the kill.
    const sessionFrom = sessionCheckAddress;
    const member = memberOf(1);
    const loginOn = async (port: number) =>
      (
        await request(apiUrl(port), sessionFrom, 'POST', accountPaths.login, {
          body: { login_type: 'native', email: member.email, password: member.password },
        })
      ).body as TokenPair;
    const fromA = await loginOn(ports.apiA);
    const fromB = await loginOn(ports.apiB);
    const profileOn = async (port: number, token: string) =>
      (await request(apiUrl(port), sessionFrom, 'GET', accountPaths.account, { token })).status;
    const refreshedOnB = await request(
      apiUrl(ports.apiB),
      sessionFrom,
      'POST',
      accountPaths.refresh,
      {
        body: { refresh: fromA.refresh },
      },
    );
    const sessionResults = [
      await profileOn(ports.apiB, fromA.access),
      await profileOn(ports.apiA, fromB.access),
      await profileOn(ports.apiA, tokenBeforeKill),
      refreshedOnB.status,
    ];
    checks.push({
      invariant: 'sessions across processes',
      expected: '200 200 200 200',
      observed: `${sessionResults.join(' ')} (A→B, B→A, pre-kill token on restarted A, refresh from A on B)`,
      ok: sessionResults.every((status) => status === 200),
    });

    // Rate limit: sign-ins from one address, alternating between the processes directly.
    const limited = memberOf(2);
    const attempts: number[] = [];
    for (let attempt = 0; attempt < ratePerIp + 2; attempt += 1) {
      const port = attempt % 2 === 0 ? ports.apiA : ports.apiB;
      const answer = await request(apiUrl(port), rateLimitAddress, 'POST', accountPaths.login, {
        body: { login_type: 'native', email: limited.email, password: limited.password },
      });
      attempts.push(answer.status);
    }
    const expectedAttempts = [...Array.from({ length: ratePerIp }, () => 200), 429, 429];
    checks.push({
      invariant: `rate limit counts across both (RATE_LIMIT_PER_IP=${String(ratePerIp)})`,
      expected: expectedAttempts.join(' '),
      observed: attempts.join(' '),
      ok: attempts.join(' ') === expectedAttempts.join(' '),
    });

    // The load, per operation and process.
    const upstreamName = (upstream: string) => {
      const last = upstream.split(', ').at(-1) ?? '';
      return last === '' ? 'none' : `:${last.split(':').at(-1) ?? ''}`;
    };
    const operations = [...new Set(outcomes.map((outcome) => outcome.operation))];
    printTable('Load (requests through nginx)', [
      ['operation', 'requests', 'ok', 'failed', 'served by'],
      ...operations.map((operation) => {
        const mine = outcomes.filter((outcome) => outcome.operation === operation);
        const ok = mine.filter((outcome) => outcome.status === expectedStatus[operation]).length;
        const by = new Map<string, number>();
        for (const outcome of mine)
          by.set(upstreamName(outcome.upstream), (by.get(upstreamName(outcome.upstream)) ?? 0) + 1);
        return [
          operation,
          String(mine.length),
          String(ok),
          String(mine.length - ok),
          [...by].map(([name, count]) => `${name} ${String(count)}`).join(', '),
        ];
      }),
    ]);
    say(
      `PostgreSQL down at ${((databaseDownAt - loadStart) / 1000).toFixed(1)} s of load for ${((databaseBackAt - databaseDownAt) / 1000).toFixed(1)} s; ${String(answered503)} requests answered 503 meanwhile; APIs ready ${readyAfterSeconds.map((seconds) => seconds.toFixed(1)).join(' and ')} s after it was back`,
    );
    say(
      `kill -9 API at ${((apiKill.signalled - loadStart) / 1000).toFixed(1)} s of load (exit seen ${String(apiKill.exited - apiKill.signalled)} ms later), restarted at ${((apiRestartedAt - loadStart) / 1000).toFixed(1)} s; worker at ${((workerKilledAt - loadStart) / 1000).toFixed(1)} s; ${String(rows.length)} reminders fell due during the drill`,
    );
  } finally {
    for (const cleanup of cleanups) {
      await cleanup().catch((error: unknown) => {
        console.error(error);
      });
    }
    closeAgents();
  }
  printTable('Scale-out drill', [
    ['invariant', 'expected', 'observed', 'result'],
    ...checks.map((check) => [
      check.invariant,
      check.expected,
      check.observed,
      check.ok ? 'PASS' : 'FAIL',
    ]),
  ]);
  return checks.every((check) => check.ok) ? 0 : 1;
}

main().then(
  (code) => {
    process.exit(code);
  },
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);

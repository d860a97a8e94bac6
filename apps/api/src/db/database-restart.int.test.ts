import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inArray } from 'drizzle-orm';
import pg from 'pg';
import type { LightMyRequestResponse } from 'fastify';
import { appointmentPaths, problemContentType } from '@dental/contracts';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories } from '#api-test/factories';
import { startPostgresCluster, type PostgresCluster } from '#api-test/support/postgres-cluster';
import { openDatabase } from '#api/db/client';
import { databaseRetryAfterSeconds } from '#api/db/database-outage';
import { appointments } from '#api/db/schema';
import { healthPaths } from '#api/plugins/health';
import { jobQueueSettings, startJobQueue, type JobQueue } from '#api/jobs/job-queue';

/**
 * The API over a PostgreSQL server of the test's own, restarted under traffic the two ways a
 * managed database goes away (docs/decisions/database-restarts.md): a restart, which terminates
 * every connection, and a crash (stop -m immediate) followed by a start.
 */
let cluster: PostgresCluster;
let t: TestApp;
let jobs: JobQueue;
const outageLog: { message: string; details: object }[] = [];
const probeJobs: string[] = [];

type Member = Awaited<ReturnType<ReturnType<typeof factories>['loggedInMember']>>;
let member: Member;

beforeAll(async () => {
  cluster = await startPostgresCluster();
  const record = (details: object, message: string) => outageLog.push({ details, message });
  const database = await openDatabase(
    { kind: 'postgres', url: cluster.url },
    { error: record, warn: record },
  );
  t = await buildTestApp({ database });
  jobs = await startJobQueue(
    t.db,
    { ...jobQueueSettings(t.config), workers: true, pollSeconds: 0.5 },
    { error: record },
    database.outage,
  );
  await jobs.register(
    'restart-probe',
    (data: { label: string }) => {
      probeJobs.push(data.label);
      return Promise.resolve();
    },
    { retryLimit: 3, retryDelaySeconds: 1, expireInSeconds: 30, batchSize: 1 },
  );
  member = await factories(t).loggedInMember();
}, 120_000);

afterAll(async () => {
  try {
    await jobs.stop(1_000);
    await t.close();
  } finally {
    // The server must not outlive the test, whatever failed before.
    await cluster.remove();
  }
});

let written = 0;
const addAppointment = () =>
  t.request('POST', appointmentPaths.list, {
    token: member.tokens.access,
    body: {
      appointment_date: '2031-01-15T12:00:00.000Z',
      note: `Written under a restart ${String((written += 1))}`,
      email_alert: false,
      alert_before: [],
      time_zone: 'UTC',
    },
  });

interface Outcome {
  status: number;
  retryAfter: string | undefined;
  contentType: string;
  id: string | undefined;
  body: string;
}

const outcomeOf = (response: LightMyRequestResponse): Outcome => ({
  status: response.statusCode,
  retryAfter: response.headers['retry-after'],
  contentType: String(response.headers['content-type']),
  id: response.statusCode === 201 ? response.json<{ id: string }>().id : undefined,
  body: response.body,
});

/** Writes one after another (two side by side) until stopped: the traffic a restart meets. */
function traffic(): { stop(): Promise<Outcome[]> } {
  const outcomes: Outcome[] = [];
  let running = true;
  const writer = async () => {
    while (running) outcomes.push(outcomeOf(await addAppointment()));
  };
  const writers = [writer(), writer()];
  return {
    stop: async () => {
      running = false;
      await Promise.all(writers);
      return outcomes;
    },
  };
}

/** Seconds from now until a write is acknowledged again. */
async function secondsUntilServing(): Promise<number> {
  const started = Date.now();
  while ((await addAppointment()).statusCode !== 201) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return (Date.now() - started) / 1000;
}

const expectUnavailable = (outcome: Outcome) => {
  expect(outcome.status, outcome.body).toBe(503);
  expect(outcome.contentType, outcome.body).toContain(problemContentType);
  expect(outcome.retryAfter).toBe(String(databaseRetryAfterSeconds));
};

/** Every write was acknowledged or answered 503; prints the figures of the outage. */
function expectAcknowledgedOr503(outage: string, outcomes: Outcome[], seconds: number) {
  const refused = outcomes.filter((outcome) => outcome.status !== 201);
  for (const outcome of refused) expectUnavailable(outcome);
  console.info(
    `${outage}: ${String(outcomes.length)} writes, ${String(refused.length)} answered 503, ` +
      `serving again ${seconds.toFixed(2)} s after the server was back`,
  );
}

describe('PostgreSQL restarting under traffic', () => {
  const outcomes: Outcome[] = [];

  it('answers 503 with Retry-After across a restart and serves again by itself', async () => {
    const load = traffic();
    await new Promise((resolve) => setTimeout(resolve, 500));
    await cluster.restart();
    const seconds = await secondsUntilServing();
    outcomes.push(...(await load.stop()));

    expect(seconds).toBeLessThan(10);
    expectAcknowledgedOr503('restart', outcomes, seconds);
  }, 60_000);

  it('answers 503 while the server is down after a crash, and 200 when it is back', async () => {
    const load = traffic();
    await new Promise((resolve) => setTimeout(resolve, 500));
    await cluster.stopImmediately();
    const whileDown = outcomeOf(await addAppointment());
    const readyWhileDown = await t.request('GET', healthPaths.ready);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await cluster.start();
    const seconds = await secondsUntilServing();
    const crashOutcomes = await load.stop();
    outcomes.push(...crashOutcomes);
    const readyAfter = await t.request('GET', healthPaths.ready);

    expectUnavailable(whileDown);
    expect(readyWhileDown.statusCode).toBe(503);
    expect(readyWhileDown.json()).toMatchObject({ failed: ['database'] });
    expect(readyAfter.statusCode).toBe(200);
    expect(seconds).toBeLessThan(10);
    expectAcknowledgedOr503('crash', crashOutcomes, seconds);
  }, 60_000);

  it('keeps every acknowledged write', async () => {
    const acknowledged = outcomes.flatMap((outcome) => outcome.id ?? []);
    const found = await t.db
      .select({ id: appointments.id })
      .from(appointments)
      .where(inArray(appointments.id, acknowledged));

    expect(acknowledged.length).toBeGreaterThan(0);
    expect(found).toHaveLength(acknowledged.length);
    console.info(`acknowledged ${String(acknowledged.length)}, found ${String(found.length)}`);
  });

  it('holds no connection lost during the restarts', () => {
    const pool = (t.db as { $client?: unknown }).$client;
    if (!(pool instanceof pg.Pool)) throw new Error('The test runs on a PostgreSQL pool.');

    expect(pool.totalCount - pool.idleCount).toBe(0);
  });

  it('runs queued jobs again', async () => {
    await jobs.send('restart-probe', [
      { id: crypto.randomUUID(), data: { label: 'after the restarts' }, startAfter: new Date() },
    ]);
    await expect.poll(() => probeJobs, { timeout: 15_000 }).toContain('after the restarts');
  }, 20_000);

  it('logs each outage once, without the failed statements', () => {
    const lost = outageLog.filter((line) => line.message.startsWith('database unreachable'));
    const back = outageLog.filter((line) => line.message === 'database reachable again');

    expect(lost.length).toBeGreaterThanOrEqual(1);
    expect(lost.length).toBeLessThanOrEqual(2);
    expect(back).toHaveLength(lost.length);
    expect(outageLog.filter((line) => !lost.includes(line) && !back.includes(line))).toEqual([]);
    expect(JSON.stringify(outageLog)).not.toMatch(/insert into|params/i);
  });
});

import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf, type Database } from '#api/db/client';
import { DatabaseOutage } from '#api/db/database-outage';
import type { ErrorLogger } from '#api/logger';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { freePort } from '#api-test/support/free-port';
import { confirmOutage, startJobQueue, type JobQueue, type QueueRules } from './job-queue';

const log: ErrorLogger = { error: () => undefined, warn: () => undefined };
const settings = { workers: true, pollSeconds: 0.5, superviseSeconds: 1 };
const rules: QueueRules = {
  retryLimit: 1,
  retryDelaySeconds: 1,
  expireInSeconds: 30,
  batchSize: 5,
};

async function waitFor(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('the job queue (pg-boss on the app database)', () => {
  let t: TestApp;
  let jobs: JobQueue;
  beforeAll(async () => {
    t = await buildTestApp();
    jobs = await startJobQueue(t.db, settings, log);
  }, 60_000);
  afterAll(async () => {
    await jobs.stop();
    await t.close();
  });

  it('retries only the job of a batch that failed, and runs the others once', async () => {
    const runs = new Map<string, number>();
    const failsOnce = randomUUID();
    const ids = [failsOnce, randomUUID(), randomUUID()];
    await jobs.register<{ n: number }>(
      'batch-test',
      (_data, job) => {
        const count = (runs.get(job.id) ?? 0) + 1;
        runs.set(job.id, count);
        if (job.id === failsOnce && count === 1) throw new Error('first attempt fails');
        return Promise.resolve();
      },
      rules,
    );
    await jobs.send(
      'batch-test',
      ids.map((id, n) => ({ id, data: { n }, startAfter: new Date() })),
    );
    await waitFor(() => runs.get(failsOnce) === 2, 'the retry');
    // Long enough for a wrongly repeated batch to have run again.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(ids.map((id) => runs.get(id))).toEqual([2, 1, 1]);
  });

  it('counts each queue’s jobs by state, a job sent twice once', async () => {
    let release = (): void => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await jobs.register('count-test', () => held, { ...rules, batchSize: 1 });
    const later = new Date(Date.now() + 3_600_000);
    const deferred = { id: randomUUID(), data: {}, startAfter: later };
    await jobs.send('count-test', [deferred, deferred]);
    await jobs.send('count-test', [{ id: randomUUID(), data: {}, startAfter: new Date() }]);
    await waitFor(async () => {
      const stats = (await jobs.stats()).find((queue) => queue.queue === 'count-test');
      return stats?.active === 1;
    }, 'the due job to start');
    const stats = (await jobs.stats()).find((queue) => queue.queue === 'count-test');
    release();
    expect(stats).toEqual({ queue: 'count-test', ready: 0, deferred: 1, active: 1, failed: 0 });
  });
});

describe('a database whose job queue schema a newer pg-boss wrote', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
    await t.db.execute(sql`CREATE SCHEMA pgboss`);
    await t.db.execute(sql`CREATE TABLE pgboss.version (version int PRIMARY KEY)`);
    await t.db.execute(sql`INSERT INTO pgboss.version VALUES (43)`);
  }, 60_000);
  afterAll(() => t.close());

  it('is refused at start with what to do, and left as it was', async () => {
    await expect(startJobQueue(t.db, settings, log)).rejects.toThrow(
      /schema "pgboss" in this database is version 43.*DROP SCHEMA pgboss CASCADE/,
    );
    const tables = rowsOf<{ n: number }>(
      await t.db.execute(
        sql`SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'pgboss'`,
      ),
    );
    expect(tables[0]?.n).toBe(1);
  });
});

describe("a lost connection of the queue's own pool", () => {
  const lines: string[] = [];
  const record: ErrorLogger = {
    error: (_details, message) => lines.push(message),
    warn: (_details, message) => lines.push(message),
  };
  const refused = { code: '57P03', message: 'the database system is starting up' };
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  }, 60_000);
  afterAll(() => t.close());

  it("is no outage while the API's pool reaches the database", async () => {
    lines.length = 0;
    await confirmOutage(t.db, new DatabaseOutage(record), refused, record);

    expect(lines).toEqual([]);
  });

  it('is logged once as an outage when the database cannot be reached', async () => {
    lines.length = 0;
    const pool = new pg.Pool({
      connectionString: `postgres://postgres@127.0.0.1:${String(await freePort())}/postgres`,
    });
    try {
      const unreachable = drizzle({ client: pool }) as unknown as Database;
      const outage = new DatabaseOutage(record);
      await confirmOutage(unreachable, outage, refused, record);
      await confirmOutage(unreachable, outage, refused, record);

      expect(lines).toEqual(['database unreachable; requests answer 503 until it is back']);
    } finally {
      await pool.end();
    }
  });
});

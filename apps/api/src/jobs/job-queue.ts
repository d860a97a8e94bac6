import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import PgBoss from 'pg-boss';
import type { Config } from '../config';
import { rowsOf, type Database } from '../db/client';
import { connectionLossOf, type DatabaseOutage } from '../db/database-outage';
import type { ErrorLogger } from '../logger';

export interface JobQueueSettings {
  /** Whether this process runs the workers it registers (WORKERS=on), or only sends jobs. */
  workers: boolean;
  /** How long an idle worker waits between looks for due jobs. */
  pollSeconds: number;
  /** How often jobs whose worker vanished (crash, kill) are found and retried. */
  superviseSeconds: number;
}

/** Retry and concurrency rules of one queue. */
export interface QueueRules {
  /** Retries after the first attempt before a job is failed for good. */
  retryLimit: number;
  /** First retry delay; doubled (with jitter) on each later retry. */
  retryDelaySeconds: number;
  /** A job running longer (or whose process died) is retried after this long. */
  expireInSeconds: number;
  /** Jobs one worker fetches at a time and runs side by side. */
  batchSize: number;
}

export interface JobToSend<Data extends object> {
  /** The job's id: sending the same id again is a no-op, so a send can be repeated safely. */
  id: string;
  data: Data;
  startAfter: Date;
}

/** Runs one job; a throw fails this attempt and the queue retries it with backoff. */
export type JobHandler<Data> = (
  data: Data,
  job: { id: string; retryCount: number },
) => Promise<void>;

/** The persisted job queue of the whole app (pg-boss,
 *  docs/decisions/architecture.md#services-and-embedded-defaults). */
export interface JobQueue {
  /**
   * Creates the queue; with workers on, this process also works it. A cron expression also
   * sends it one job on that schedule (one across all processes).
   */
  register<Data extends object>(
    queue: string,
    handler: JobHandler<Data>,
    rules: QueueRules,
    cron?: string,
  ): Promise<void>;
  send<Data extends object>(queue: string, jobs: readonly JobToSend<Data>[]): Promise<void>;
  cancel(queue: string, ids: readonly string[]): Promise<void>;
  /** Stops fetching, lets running jobs finish (up to `timeoutMs`), then lets go of the database. */
  stop(timeoutMs?: number): Promise<void>;
  /** Throws when the queue's tables cannot be read (readiness probe). */
  ping(): Promise<void>;
  /** Job counts of every queue, across all processes. */
  stats(): Promise<QueueStats[]>;
}

export interface QueueStats {
  queue: string;
  /** Jobs due now and waiting for a worker: the backlog. */
  ready: number;
  /** Jobs waiting for their start time (scheduled reminders, retries after a delay). */
  deferred: number;
  active: number;
  /** Jobs that failed for good, still kept in the table (pg-boss deletes them after a while). */
  failed: number;
}

/** The `pgboss` schema version pg-boss 10 creates and migrates to. */
const queueSchemaVersion = 24;

/**
 * pg-boss's database calls on the PGlite instance: a statement with parameters through query(),
 * its parameterless multi-statement migrations and locked blocks through exec(). PGlite is one
 * connection, so a block that failed between BEGIN and COMMIT is rolled back here; a pool would
 * have discarded that connection instead.
 */
function pgliteExecutor(client: PGlite): PgBoss.Db {
  return {
    // pg-boss leaves the values out of its migrations.
    async executeSql(text: string, values?: unknown[]) {
      try {
        if (values !== undefined && values.length > 0) return await client.query(text, values);
        const results = await client.exec(text);
        return { rows: results.flatMap((result) => result.rows) };
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
    },
  };
}

/** pg-boss on the app's own database: the PGlite instance itself, or its own small pool. */
function connectionOf(
  db: Database,
): Pick<PgBoss.ConstructorOptions, 'db' | 'connectionString' | 'max'> {
  const client = '$client' in db ? db.$client : undefined;
  if (client instanceof PGlite) return { db: pgliteExecutor(client) };
  if (client instanceof pg.Pool && client.options.connectionString !== undefined) {
    return { connectionString: client.options.connectionString, max: 4 };
  }
  throw new Error('The job queue runs on PGlite or on a PostgreSQL pool opened from a URL.');
}

/**
 * pg-boss 10 cannot read the schema a newer pg-boss wrote (an early build of this product ran 12),
 * and would fail on its first query; refuse with what to do instead (docs/decisions/job-queue.md).
 */
async function refuseNewerQueueSchema(db: Database): Promise<void> {
  const [table] = rowsOf<{ exists: boolean }>(
    await db.execute(sql`SELECT to_regclass('pgboss.version') IS NOT NULL AS exists`),
  );
  if (table?.exists !== true) return;
  const [installed] = rowsOf<{ version: number }>(
    await db.execute(sql`SELECT version FROM pgboss.version`),
  );
  const version = Number(installed?.version);
  if (!(version > queueSchemaVersion)) return;
  throw new Error(
    `The job queue schema "pgboss" in this database is version ${String(version)}, written by a ` +
      `newer pg-boss than this build's (version ${String(queueSchemaVersion)}). Stop every ` +
      'process, run DROP SCHEMA pgboss CASCADE on the database, and start again: pending ' +
      'reminders are queued again by the reminder sweep.',
  );
}

/** Job counts per queue, read from the job table itself (every process sees the same). */
const queueCountsQuery = `
  SELECT q.name AS queue,
    count(j.id) FILTER (WHERE j.state IN ('created', 'retry') AND j.start_after <= now())::int AS ready,
    count(j.id) FILTER (WHERE j.state IN ('created', 'retry') AND j.start_after > now())::int AS deferred,
    count(j.id) FILTER (WHERE j.state = 'active')::int AS active,
    count(j.id) FILTER (WHERE j.state = 'failed')::int AS failed
  FROM pgboss.queue q LEFT JOIN pgboss.job j ON j.name = q.name
  GROUP BY q.name`;

/**
 * A lost connection of the queue's own pool is an outage only if the API's pool cannot reach the
 * database either: a poll that began while the server was still starting up can fail just after
 * the API's pool connected again, and would log a second outage for one restart
 * (docs/decisions/database-restarts.md). Exported for its test.
 */
export async function confirmOutage(
  db: Database,
  outage: DatabaseOutage,
  loss: NonNullable<ReturnType<typeof connectionLossOf>>,
  log: ErrorLogger,
): Promise<void> {
  if (outage.ongoing) return;
  try {
    await db.execute(sql`SELECT 1`);
  } catch (error) {
    if (connectionLossOf(error) !== undefined) outage.lost(loss);
    else log.error({ err: error }, 'job queue error');
  }
}

/**
 * Starts pg-boss (it creates and migrates its own `pgboss` schema). Its pool reconnects by itself
 * after a database restart; the lost connections and failed polls in between are told to `outage`,
 * which logs them once, instead of one error per poll.
 */
export async function startJobQueue(
  db: Database,
  settings: JobQueueSettings,
  log: ErrorLogger,
  outage?: DatabaseOutage,
): Promise<JobQueue> {
  await refuseNewerQueueSchema(db);
  const boss = new PgBoss({
    ...connectionOf(db),
    // Expired attempts (a vanished worker) are found and retried on this beat.
    maintenanceIntervalSeconds: settings.superviseSeconds,
  });
  boss.on('error', (error) => {
    const loss = connectionLossOf(error);
    if (loss !== undefined && outage !== undefined) void confirmOutage(db, outage, loss, log);
    else log.error({ err: error }, 'job queue error');
  });
  await boss.start();

  /** Runs a fetched batch; each job succeeds or fails on its own, so a failure retries only itself. */
  async function runBatch<Data>(
    queue: string,
    handler: JobHandler<Data>,
    jobs: PgBoss.JobWithMetadata<Data>[],
  ): Promise<void> {
    const failures = await Promise.all(
      jobs.map(async (job) => {
        try {
          await handler(job.data, { id: job.id, retryCount: job.retryCount });
          return undefined;
        } catch (error) {
          log.error({ err: error, queue, jobId: job.id }, 'job failed; it will be retried');
          return job.id;
        }
      }),
    );
    const failed = failures.filter((id) => id !== undefined);
    // Failed before the batch returns: pg-boss then completes only the jobs still active.
    if (failed.length > 0) await boss.fail(queue, failed);
  }

  return {
    async register<Data extends object>(
      queue: string,
      handler: JobHandler<Data>,
      rules: QueueRules,
      cron?: string,
    ) {
      const options = {
        name: queue,
        retryLimit: rules.retryLimit,
        retryDelay: rules.retryDelaySeconds,
        retryBackoff: true,
        expireInSeconds: rules.expireInSeconds,
      };
      // Created once; a later start with other rules updates them.
      if ((await boss.getQueue(queue)) === null) await boss.createQueue(queue, options);
      else await boss.updateQueue(queue, options);
      if (cron !== undefined) await boss.schedule(queue, cron);
      if (!settings.workers) return;
      const worker = await boss.work<Data>(
        queue,
        {
          batchSize: rules.batchSize,
          includeMetadata: true,
          pollingIntervalSeconds: settings.pollSeconds,
        },
        async (jobs) => {
          await runBatch(queue, handler, jobs);
          // A full batch means more may be waiting: fetch again now instead of after the interval.
          if (jobs.length === rules.batchSize) boss.notifyWorker(worker);
        },
      );
    },

    async send(queue, jobs) {
      if (jobs.length === 0) return;
      await boss.insert(
        jobs.map((job) => ({
          name: queue,
          id: job.id,
          data: job.data,
          startAfter: job.startAfter,
        })),
      );
    },

    async cancel(queue, ids) {
      if (ids.length === 0) return;
      await boss.cancel(queue, [...ids]);
    },

    stop: (timeoutMs = 10_000) => boss.stop({ graceful: true, timeout: timeoutMs }),

    async ping() {
      if (!(await boss.isInstalled()).valueOf())
        throw new Error('The job queue schema is not installed.');
    },

    async stats() {
      const { rows } = await boss.getDb().executeSql(queueCountsQuery, []);
      return rows as QueueStats[];
    },
  };
}

/** The queue settings of this process; a worker-only process always works the queues. */
export function jobQueueSettings(config: Config, workers = config.jobs.workers): JobQueueSettings {
  return {
    workers,
    pollSeconds: config.jobs.pollSeconds,
    // Jobs of a vanished worker are retried within about two attempt lengths.
    superviseSeconds: Math.max(1, Math.min(60, config.reminders.attemptSeconds)),
  };
}

import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { PgBoss, fromPglite, type ConstructorOptions, type JobResult } from 'pg-boss';
import type { Config } from '../config';
import type { Database } from '../db/client';
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
  retryDelayMaxSeconds: number;
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
  /** Job counts of every queue, across all processes (from pg-boss's last monitor pass). */
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

/** pg-boss on the app's own database: the PGlite instance itself, or its own small pool. */
function connectionOf(
  db: Database,
): Pick<ConstructorOptions, 'db' | 'backend' | 'connectionString' | 'max'> {
  const client = '$client' in db ? db.$client : undefined;
  if (client instanceof PGlite) return { db: fromPglite(client), backend: 'pglite' };
  if (client instanceof pg.Pool && client.options.connectionString !== undefined) {
    return { connectionString: client.options.connectionString, max: 4 };
  }
  throw new Error('The job queue runs on PGlite or on a PostgreSQL pool opened from a URL.');
}

/** Starts pg-boss (it creates and migrates its own `pgboss` schema). */
export async function startJobQueue(
  db: Database,
  settings: JobQueueSettings,
  log: ErrorLogger,
): Promise<JobQueue> {
  const boss = new PgBoss({
    ...connectionOf(db),
    superviseIntervalSeconds: settings.superviseSeconds,
    monitorIntervalSeconds: settings.superviseSeconds,
  });
  boss.on('error', (error) => {
    log.error({ err: error }, 'job queue error');
  });
  await boss.start();

  return {
    async register<Data extends object>(
      queue: string,
      handler: JobHandler<Data>,
      rules: QueueRules,
      cron?: string,
    ) {
      const options = {
        retryLimit: rules.retryLimit,
        retryDelay: rules.retryDelaySeconds,
        retryBackoff: true,
        retryDelayMax: rules.retryDelayMaxSeconds,
        expireInSeconds: rules.expireInSeconds,
      };
      // Created once; a later start with other rules updates them.
      if ((await boss.getQueue(queue)) === null) await boss.createQueue(queue, options);
      else await boss.updateQueue(queue, options);
      if (cron !== undefined) await boss.schedule(queue, cron);
      if (!settings.workers) return;
      await boss.work<Data>(
        queue,
        {
          batchSize: rules.batchSize,
          perJobResults: true,
          burstWhenBatchFull: rules.batchSize > 1,
          pollingIntervalSeconds: settings.pollSeconds,
        },
        // Each job of the batch succeeds or fails on its own, so one failure retries only itself.
        async (jobs) =>
          Promise.all(
            jobs.map(async (job): Promise<JobResult> => {
              try {
                await handler(job.data, { id: job.id, retryCount: job.retryCount });
                return { id: job.id, status: 'completed' };
              } catch (error) {
                log.error({ err: error, queue, jobId: job.id }, 'job failed; it will be retried');
                const message = error instanceof Error ? error.message : String(error);
                return { id: job.id, status: 'failed', output: { message } };
              }
            }),
          ),
      );
    },

    async send(queue, jobs) {
      if (jobs.length === 0) return;
      await boss.insert(
        queue,
        jobs.map((job) => ({ id: job.id, data: job.data, startAfter: job.startAfter })),
      );
    },

    async cancel(queue, ids) {
      if (ids.length === 0) return;
      await boss.cancel(queue, [...ids]);
    },

    stop: (timeoutMs = 10_000) => boss.stop({ graceful: true, timeout: timeoutMs }),

    async ping() {
      if (!(await boss.isInstalled())) throw new Error('The job queue schema is not installed.');
    },

    async stats() {
      return (await boss.getQueues()).map((queue) => ({
        queue: queue.name,
        ready: queue.readyCount,
        deferred: queue.deferredCount,
        active: queue.activeCount,
        failed: queue.failedCount,
      }));
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

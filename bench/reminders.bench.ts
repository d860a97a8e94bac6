import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { count, eq } from 'drizzle-orm';
import { createMailer } from '../apps/api/src/adapters/mailer';
import { systemClock } from '../apps/api/src/clock';
import { loadConfig } from '../apps/api/src/config';
import { databaseTarget, openDatabase } from '../apps/api/src/db/client';
import { appointments, reminders } from '../apps/api/src/db/schema';
import { jobQueueSettings, startJobQueue } from '../apps/api/src/jobs/job-queue';
import { createServices, registerJobs } from '../apps/api/src/services';
import { withBenchDatabase } from './harness';

const reminderCount = 10_000;
const workerCount = 2;
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const log = {
  error: (details: object, message: string) => {
    console.error(message, details);
  },
};

/** One `worker.ts` process; resolves once it works the queues. Its mail goes to the outbox. */
function startWorker(env: Record<string, string>): Promise<ChildProcess> {
  const worker = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/worker.ts'], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  return new Promise((resolve, reject) => {
    worker.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('Job worker started')) resolve(worker);
    });
    worker.once('exit', (code) => {
      reject(new Error(`a worker exited with ${String(code)} before starting`));
    });
  });
}

const stopWorker = (worker: ChildProcess) =>
  new Promise<void>((resolve) => {
    worker.once('exit', () => {
      resolve();
    });
    worker.kill('SIGTERM');
  });

/**
 * 10,000 reminders due at once on PostgreSQL, worked by two worker processes: the seconds until
 * every one is sent, and how many were sent more than once (must be 0). Mail goes to the outbox
 * folder, so nothing leaves the machine; every message is one file.
 */
export async function remindersBench(): Promise<void> {
  await withBenchDatabase(async (databaseUrl) => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'dental-bench-reminders-'));
    const env = {
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      TOKEN_SECRET: randomBytes(32).toString('base64url'),
      WORKERS: 'off',
      JOB_POLL_SECONDS: '0.5',
      LOG_LEVEL: 'error',
    };
    const config = loadConfig(env);
    const database = await openDatabase(databaseTarget(config));
    const mailer = createMailer(config);
    const jobs = await startJobQueue(database.db, jobQueueSettings(config), log);
    const workers: ChildProcess[] = [];
    try {
      const services = createServices({ config, db: database.db, mailer, jobs }, systemClock, log);
      await registerJobs(jobs, services);
      const member = await services.registrations.register({
        email: `bench-${randomBytes(4).toString('hex')}@example.com`,
        username: 'Bench Member',
        password: `Molar-${randomBytes(6).toString('hex')}`,
        phone: null,
      });

      // Due now: each reminder belongs to its own appointment an hour ahead.
      const now = new Date();
      for (let start = 0; start < reminderCount; start += 1000) {
        const rows = await database.db
          .insert(appointments)
          .values(
            Array.from({ length: Math.min(1000, reminderCount - start) }, () => ({
              userId: member.id,
              appointmentDate: new Date(now.getTime() + 3600_000),
              timeZone: 'UTC',
              emailAlert: true,
              alertTimes: [now],
            })),
          )
          .returning({ id: appointments.id });
        await database.db.insert(reminders).values(
          rows.map(({ id }) => ({
            appointmentId: id,
            channel: 'email' as const,
            alertTime: now,
          })),
        );
      }

      workers.push(
        ...(await Promise.all(Array.from({ length: workerCount }, () => startWorker(env)))),
      );
      const started = performance.now();
      // Queue every job (as the API does after saving, or the sweep after a crash).
      await services.reminders.sweep();
      const sentCount = async () => {
        const [row] = await database.db
          .select({ sent: count() })
          .from(reminders)
          .where(eq(reminders.status, 'sent'));
        return row?.sent ?? 0;
      };
      while ((await sentCount()) < reminderCount) {
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      const seconds = (performance.now() - started) / 1000;
      // Let any second copy land before counting.
      await new Promise((resolve) => setTimeout(resolve, 2000));
      const messages = (await readdir(path.join(dataDir, 'outbox', 'mail'))).filter((name) =>
        name.endsWith('.eml'),
      ).length;

      console.log(
        `${reminderCount.toLocaleString('en-US')} due reminders, ${workerCount} worker processes on PostgreSQL`,
      );
      console.log(
        `  drained in ${seconds.toFixed(1)} s (${(reminderCount / seconds).toFixed(0)} reminders/s)`,
      );
      console.log(`  messages sent: ${messages}; duplicates: ${messages - reminderCount}`);
    } finally {
      await Promise.all(workers.map(stopWorker));
      await jobs.stop();
      await mailer.close();
      await database.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
}

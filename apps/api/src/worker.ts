import { createMailer } from './adapters/mailer';
import { systemClock } from './clock';
import { ConfigError, loadConfig } from './config';
import { databaseTarget, openDatabase } from './db/client';
import { DataDirError } from './db/data-dir';
import { jobQueueSettings, startJobQueue } from './jobs/job-queue';
import { keepRunningWithoutConsole, stderrLogger as log } from './logger';
import { createServices, registerJobs } from './services';

/**
 * `npx tsx apps/api/src/worker.ts`: a process that only works the job queue (no HTTP), for
 * running any number of workers beside API processes started with WORKERS=off.
 */
async function main(): Promise<void> {
  keepRunningWithoutConsole();
  const config = loadConfig(process.env);
  const database = await openDatabase(databaseTarget(config), log);
  const mailer = createMailer(config);
  const jobs = await startJobQueue(
    database.db,
    jobQueueSettings(config, true),
    log,
    database.outage,
  );
  const services = createServices({ config, db: database.db, mailer, jobs }, systemClock, log);
  await registerJobs(jobs, services);

  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    // Running jobs finish first (up to SHUTDOWN_TIMEOUT_SECONDS); then the mailer and the database close.
    jobs
      .stop(config.shutdownTimeoutSeconds * 1000)
      .then(() => Promise.all([mailer.close(), database.close()]))
      .then(
        () => process.exit(0),
        (error: unknown) => {
          console.error(error);
          process.exit(1);
        },
      );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  process.stdout.write(`Job worker started on ${database.description}\n`);
}

main().catch((error: unknown) => {
  console.error(
    error instanceof ConfigError || error instanceof DataDirError ? error.message : error,
  );
  process.exit(1);
});

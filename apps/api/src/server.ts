import type { AddressInfo } from 'node:net';
import { createMailer } from './adapters/mailer';
import { buildApp } from './app';
import { serveClinicCommands } from './clinic-command/commands';
import { ConfigError, loadConfig } from './config';
import { databaseTarget, openDatabase } from './db/client';
import { DataDirError } from './db/data-dir';
import { jobQueueSettings, startJobQueue } from './jobs/job-queue';
import { keepRunningWithoutConsole, type ErrorLogger } from './logger';
import { seedConsultations } from './modules/virtual-consultation/clinic.service';
import { createRepositories } from './repositories';
import { startReportLines } from './start-report';

/**
 * `npm start` (compiled; scripts/start.mjs) or `npx tsx apps/api/src/server.ts`: reads the
 * environment, migrates, serves, stops cleanly.
 */
async function main(): Promise<void> {
  keepRunningWithoutConsole();
  const config = loadConfig(process.env);
  // Database outages and job queue errors go to the app's log once it exists.
  let processLog: ErrorLogger = {
    error: (details, message) => {
      console.error(message, details);
    },
  };
  const log: ErrorLogger = {
    error: (details, message) => {
      processLog.error(details, message);
    },
    warn: (details, message) => {
      (processLog.warn ?? processLog.error).call(processLog, details, message);
    },
  };
  const database = await openDatabase(databaseTarget(config), log);
  // Built once here: the start-up seeding and the app's services share them.
  const repositories = createRepositories(database.db);
  // The embedded start books consultations out of the box; a PostgreSQL deployment adds its own
  // doctors through the clinic command (docs/decisions/consultation-booking.md).
  if (config.databaseUrl === undefined) await seedConsultations(repositories.clinic);
  const mailer = createMailer(config);
  const jobs = await startJobQueue(database.db, jobQueueSettings(config), log, database.outage);
  const app = await buildApp({
    config,
    db: database.db,
    repositories,
    mailer,
    jobs,
    notifications: database.notifications,
    databaseOutage: database.outage,
  });
  processLog = app.log;
  // On the embedded database, `npm run clinic` reaches it through this process.
  const clinicChannel =
    config.databaseUrl === undefined
      ? await serveClinicCommands(config, database.db, repositories.clinic, app.log)
      : undefined;

  const shutdownMs = config.shutdownTimeoutSeconds * 1000;
  let jobsStopped: Promise<void> | undefined;
  const stopJobs = () => (jobsStopped ??= jobs.stop(shutdownMs));
  // Workers stop fetching when the server stops accepting; the file store and the models close
  // (the app's own onClose hooks, which run after this one) only once the running jobs have ended.
  app.addHook('preClose', (done) => {
    stopJobs().catch(() => undefined);
    done();
  });
  app.addHook('onClose', () => stopJobs());

  // Stop accepting, finish requests in flight and running jobs (until the deadline), then close
  // the mailer and the database (docs/decisions/health-metrics-shutdown.md).
  const shutdown = async () => {
    const deadline = setTimeout(() => {
      app.log.warn({ seconds: config.shutdownTimeoutSeconds }, 'shutdown deadline passed');
      app.server.closeAllConnections();
    }, shutdownMs);
    try {
      await Promise.all([app.close(), clinicChannel?.close()]);
      await stopJobs();
      await Promise.all([mailer.close(), database.close()]);
    } finally {
      clearTimeout(deadline);
    }
  };

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    shutdown().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);

  try {
    await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    // A taken port must not leave the embedded database open mid-write.
    await shutdown();
    throw error;
  }
  const { port } = app.server.address() as AddressInfo;
  process.stdout.write(
    [
      '',
      `${config.companyName} is running at http://${config.host}:${port}/`,
      `  API docs: http://${config.host}:${port}/api/docs`,
      `  Database: ${database.description}`,
      `  E-mail:   ${mailer.description}`,
      `  Jobs:     ${config.jobs.workers ? 'worked in this process' : 'queued for worker processes (WORKERS=off)'}`,
      ...startReportLines(config.logLevel, process.uptime(), process.memoryUsage()),
      '',
      '',
    ].join('\n'),
  );
}

main().catch((error: unknown) => {
  console.error(
    error instanceof ConfigError || error instanceof DataDirError ? error.message : error,
  );
  process.exit(1);
});

import { createMailer, type Mailer } from '#api/adapters/mailer';
import { systemClock } from '#api/clock';
import { loadConfig } from '#api/config';
import { databaseTarget, openDatabase } from '#api/db/client';
import { jobQueueSettings, startJobQueue } from '#api/jobs/job-queue';
import { stderrLogger as log } from '#api/logger';
import { createServices, registerJobs } from '#api/services';

/**
 * worker.ts whose mailer stops for good once a message is handed over, before the worker can
 * record it as sent: the test kills it there, between sending and recording
 * (noticeRaceTests in notice-workers.ts).
 */
const config = loadConfig(process.env);
const database = await openDatabase(databaseTarget(config), log);
const real = createMailer(config);
const mailer: Mailer = {
  description: real.description,
  async send(message) {
    await real.send(message);
    process.stdout.write('Notice handed over\n');
    await new Promise(() => undefined);
  },
  close: () => real.close(),
};
const jobs = await startJobQueue(database.db, jobQueueSettings(config, true), log, database.outage);
await registerJobs(
  jobs,
  createServices({ config, db: database.db, mailer, jobs }, systemClock, log),
);
process.stdout.write('Job worker started\n');

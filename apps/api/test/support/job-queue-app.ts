import type { FastifyInstance } from 'fastify';
import { createMailer } from '#api/adapters/mailer';
import { buildApp } from '#api/app';
import { systemClock } from '#api/clock';
import { jobQueueSettings, startJobQueue } from '#api/jobs/job-queue';
import type { ErrorLogger } from '#api/logger';
import { createServices, type Services } from '#api/services';
import type { TestApp } from '../build-test-app';

export interface JobQueueApp {
  app: FastifyInstance;
  services: Services;
  close(): Promise<void>;
}

const log: ErrorLogger = { error: () => undefined, warn: () => undefined };

/**
 * The API as server.ts builds it, over the test app's database and configuration: with its job
 * queue (pg-boss on the test database) and, unless `workers` is false, the workers that run it.
 */
export async function withJobQueue(
  t: TestApp,
  { workers = true }: { workers?: boolean } = {},
): Promise<JobQueueApp> {
  const jobs = await startJobQueue(t.db, { ...jobQueueSettings(t.config), workers }, log);
  const mailer = createMailer(t.config);
  const services = createServices({ config: t.config, db: t.db, mailer, jobs }, systemClock, log);
  const app = await buildApp({ config: t.config, db: t.db, mailer, jobs, services });
  await app.ready();
  return {
    app,
    services,
    close: async () => {
      await app.close();
      await jobs.stop();
      await mailer.close();
    },
  };
}

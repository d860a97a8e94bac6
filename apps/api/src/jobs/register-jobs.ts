import type { Config } from '../config';
import type { Services } from '../app';
import { registerReminderWorkers } from '../modules/appointments/reminders.service';
import { registerMembershipWorkers } from '../modules/membership/membership.jobs';
import type { JobQueue, JobQueueSettings } from './job-queue';

/** The queue settings of this process; a worker-only process always works the queues. */
export function jobQueueSettings(config: Config, workers = config.jobs.workers): JobQueueSettings {
  return {
    workers,
    pollSeconds: config.jobs.pollSeconds,
    // Jobs of a vanished worker are retried within about two attempt lengths.
    superviseSeconds: Math.max(1, Math.min(60, config.reminders.attemptSeconds)),
  };
}

/** Every job type of the app, registered on the queue (and worked when workers are on). */
export async function registerJobWorkers(jobs: JobQueue, services: Services): Promise<void> {
  await registerReminderWorkers(jobs, services.reminders);
  await registerMembershipWorkers(jobs, services.membership);
}

import type { Config } from '../config';
import { registerAppointmentJobs } from '../modules/appointments/appointments.jobs';
import { registerFileJobs } from '../modules/files/files.jobs';
import { registerMembershipJobs } from '../modules/membership/membership.jobs';
import type { Services } from '../services';
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

/** Every feature's jobs, registered on the queue (and worked when workers are on). */
export async function registerJobs(jobs: JobQueue, services: Services): Promise<void> {
  await registerAppointmentJobs(jobs, services.reminders);
  await registerMembershipJobs(jobs, services.membership);
  await registerFileJobs(jobs, services.orphanSweep);
}

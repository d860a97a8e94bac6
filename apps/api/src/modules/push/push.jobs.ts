import type { JobQueue } from '#api/jobs/job-queue';
import { pushQueue, type PushJob, type PushService } from './push.service';

/** The queue whose job, every minute, queues pushes left unqueued. */
export const pushSweepQueue = 'push-sweep';

/** Works the push queues (in this process when WORKERS=on); sweeps once at start. */
export async function registerPushJobs(jobs: JobQueue, push: PushService): Promise<void> {
  const rules = push.queueRules;
  await jobs.register<PushJob>(
    pushQueue,
    (job, attempt) => push.deliver(job.pushId, attempt.retryCount >= rules.retryLimit),
    rules,
  );
  await jobs.register(
    pushSweepQueue,
    () => push.sweep(),
    { ...rules, retryLimit: 0, batchSize: 1 },
    '* * * * *',
  );
  await push.sweep();
}

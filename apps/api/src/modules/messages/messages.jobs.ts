import type { JobQueue } from '#api/jobs/job-queue';
import {
  messageNoticeQueue,
  type MessageNoticeJob,
  type MessageNoticeService,
} from './message-notices.service';

/** The queue whose job, every minute, queues reply notices left unqueued. */
export const messageNoticeSweepQueue = 'message-notice-sweep';

/** Works the notice queues (in this process when WORKERS=on); sweeps once at start. */
export async function registerMessageJobs(
  jobs: JobQueue,
  notices: MessageNoticeService,
): Promise<void> {
  const rules = notices.queueRules;
  await jobs.register<MessageNoticeJob>(
    messageNoticeQueue,
    (job, attempt) => notices.deliver(job.noticeId, attempt.retryCount >= rules.retryLimit),
    rules,
  );
  await jobs.register(
    messageNoticeSweepQueue,
    () => notices.sweep(),
    { ...rules, retryLimit: 0, batchSize: 1 },
    '* * * * *',
  );
  await notices.sweep();
}

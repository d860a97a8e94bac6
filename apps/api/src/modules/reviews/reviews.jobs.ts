import type { JobQueue } from '#api/jobs/job-queue';
import { reviewNoticeQueue, type ReviewNoticeJob, type ReviewNotices } from './review-notices';

/** The queue whose job, every minute, queues answer notices left unqueued. */
export const reviewNoticeSweepQueue = 'photo-review-notice-sweep';

/** Works the answer notices (in this process when WORKERS=on); sweeps once at start. */
export async function registerReviewJobs(jobs: JobQueue, notices: ReviewNotices): Promise<void> {
  const rules = notices.queueRules;
  await jobs.register<ReviewNoticeJob>(
    reviewNoticeQueue,
    (job) => notices.deliver(job.reviewId),
    rules,
  );
  await jobs.register(
    reviewNoticeSweepQueue,
    async () => {
      await notices.sweep();
    },
    { ...rules, retryLimit: 0, batchSize: 1 },
    '* * * * *',
  );
  await notices.sweep();
}

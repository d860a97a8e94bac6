import type { JobQueue } from '#api/jobs/job-queue';
import {
  reportQueue,
  reportQueueRules,
  type ReportJob,
  type ReportService,
} from './reports.service';

export const reportRecoveryQueue = 'reports-recovery';

/** The report job, and every five minutes a sweep of reports whose job was lost. */
export async function registerReportJobs(jobs: JobQueue, reports: ReportService): Promise<void> {
  await jobs.register<ReportJob>(
    reportQueue,
    (data) => reports.run(data.reportId),
    reportQueueRules,
  );
  await jobs.register(
    reportRecoveryQueue,
    async () => {
      await reports.failAbandoned();
    },
    { retryLimit: 0, retryDelaySeconds: 60, expireInSeconds: 300, batchSize: 1 },
    '*/5 * * * *',
  );
}

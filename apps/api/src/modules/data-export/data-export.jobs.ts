import type { JobQueue } from '#api/jobs/job-queue';
import {
  dataExportQueue,
  dataExportQueueRules,
  type DataExportJob,
  type DataExportService,
} from './data-export.service';

export const dataExportRecoveryQueue = 'data-export-recovery';
export const dataExportCleanupQueue = 'data-export-cleanup';

/** The export job, and a daily removal of archives whose link has expired. */
export async function registerDataExportJobs(
  jobs: JobQueue,
  exports: DataExportService,
): Promise<void> {
  await jobs.register<DataExportJob>(
    dataExportQueue,
    (data) => exports.run(data.exportId),
    dataExportQueueRules,
  );
  // At start, then every minute: an export is built again within a minute or two of its worker
  // dying, and a killed build's partial archive does not stay in DATA_DIR.
  await exports.recoverAbandoned();
  await jobs.register(
    dataExportRecoveryQueue,
    async () => {
      await exports.recoverAbandoned();
    },
    { retryLimit: 0, retryDelaySeconds: 60, expireInSeconds: 300, batchSize: 1 },
    '* * * * *',
  );
  await jobs.register(
    dataExportCleanupQueue,
    async () => {
      await exports.removeExpired();
    },
    {
      retryLimit: 0,
      retryDelaySeconds: 60,
      expireInSeconds: 3600,
      batchSize: 1,
    },
    '17 3 * * *',
  );
}

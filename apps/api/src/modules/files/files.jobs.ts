import type { JobQueue } from '#api/jobs/job-queue';
import type { OrphanSweep } from './orphan-sweep';

export const orphanSweepQueue = 'orphan-file-sweep';

/**
 * Every six hours, one sweep across all processes for blobs that no row refers to
 * (docs/decisions/file-write-order.md). A sweep is idempotent, so a retried run is harmless.
 */
export async function registerFileJobs(jobs: JobQueue, orphanSweep: OrphanSweep): Promise<void> {
  await jobs.register(
    orphanSweepQueue,
    async () => {
      await orphanSweep.sweep();
    },
    {
      retryLimit: 0,
      retryDelaySeconds: 60,
      expireInSeconds: 3600,
      batchSize: 1,
    },
    '0 */6 * * *',
  );
}

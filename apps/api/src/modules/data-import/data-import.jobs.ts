import type { JobQueue } from '#api/jobs/job-queue';
import {
  dataImportQueue,
  dataImportQueueRules,
  type DataImportJob,
  type DataImportService,
} from './data-import.service';

/** The import job (docs/decisions/data-import.md#job). */
export async function registerDataImportJobs(
  jobs: JobQueue,
  imports: DataImportService,
): Promise<void> {
  await jobs.register<DataImportJob>(
    dataImportQueue,
    (data) => imports.run(data.importId),
    dataImportQueueRules,
  );
}

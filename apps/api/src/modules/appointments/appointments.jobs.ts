import type { JobQueue } from '#api/jobs/job-queue';
import { recallQueue, type CheckUpRecallService, type RecallJob } from './check-up-recall.service';
import { reminderQueue, type ReminderJob, type ReminderService } from './reminders.service';

/** The queue whose job, every minute, queues reminders left unqueued. */
export const reminderSweepQueue = 'appointment-reminder-sweep';

/** The queue whose job, every minute, makes the check-up recalls now due and queues them. */
export const recallSweepQueue = 'check-up-recall-sweep';

/** Works the reminder and recall queues (in this process when WORKERS=on); sweeps once at
 *  start. */
export async function registerAppointmentJobs(
  jobs: JobQueue,
  reminders: ReminderService,
  recalls: CheckUpRecallService,
): Promise<void> {
  const rules = reminders.queueRules;
  await jobs.register<ReminderJob>(
    reminderQueue,
    (job, attempt) => reminders.deliver(job.reminderId, attempt.retryCount >= rules.retryLimit),
    rules,
  );
  await jobs.register(
    reminderSweepQueue,
    async () => {
      await reminders.sweep();
    },
    { ...rules, retryLimit: 0, batchSize: 1 },
    '* * * * *',
  );
  await reminders.sweep();
  await jobs.register<RecallJob>(
    recallQueue,
    (job, attempt) => recalls.deliver(job.noticeId, attempt.retryCount >= rules.retryLimit),
    rules,
  );
  await jobs.register(
    recallSweepQueue,
    async () => {
      await recalls.sweep();
    },
    { ...rules, retryLimit: 0, batchSize: 1 },
    '* * * * *',
  );
  await recalls.sweep();
}

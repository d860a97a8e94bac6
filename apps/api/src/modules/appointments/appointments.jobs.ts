import type { JobQueue } from '#api/jobs/job-queue';
import { reminderQueue, type ReminderJob, type ReminderService } from './reminders.service';

/** The queue whose job, every minute, queues reminders left unqueued. */
export const reminderSweepQueue = 'appointment-reminder-sweep';

/** Works the reminder queues (in this process when WORKERS=on); sweeps once at start. */
export async function registerAppointmentJobs(
  jobs: JobQueue,
  reminders: ReminderService,
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
}

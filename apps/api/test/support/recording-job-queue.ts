import type { JobHandler, JobQueue, QueueRules } from '#api/jobs/job-queue';

export interface RegisteredJob {
  queue: string;
  handler: JobHandler<object>;
  rules: QueueRules;
  cron?: string;
}

/**
 * A job queue that only records what a feature registers, so that a test can check the schedule
 * and run the handler itself (the real pg-boss queue is tested in the reminder suites).
 */
export function recordingJobQueue(): { queue: JobQueue; registered: RegisteredJob[] } {
  const registered: RegisteredJob[] = [];
  const queue: JobQueue = {
    register: (name, handler, rules, cron) => {
      registered.push({
        queue: name,
        handler: handler as JobHandler<object>,
        rules,
        ...(cron === undefined ? {} : { cron }),
      });
      return Promise.resolve();
    },
    send: () => Promise.resolve(),
    cancel: () => Promise.resolve(),
    stop: () => Promise.resolve(),
    ping: () => Promise.resolve(),
    stats: () => Promise.resolve([]),
  };
  return { queue, registered };
}

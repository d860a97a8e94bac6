import { z } from 'zod';
import { optional, positiveInt } from './fields';

/** The job queue (pg-boss) and the reminders it delivers. */
export const jobsEnv = z.object({
  WORKERS: optional(z.enum(['on', 'off'], 'WORKERS must be on or off.')),
  JOB_POLL_SECONDS: optional(
    z.coerce
      .number('JOB_POLL_SECONDS must be a number.')
      .min(0.5, 'JOB_POLL_SECONDS is at least 0.5.'),
  ),
  REMINDER_ATTEMPT_SECONDS: optional(positiveInt('REMINDER_ATTEMPT_SECONDS')),
  REMINDER_RETRY_DELAY_SECONDS: optional(positiveInt('REMINDER_RETRY_DELAY_SECONDS')),
  REMINDER_RETRY_LIMIT: optional(positiveInt('REMINDER_RETRY_LIMIT')),
});

export interface JobsSection {
  /** The job queue (pg-boss) and whether this process works it (WORKERS=on, the default). */
  jobs: { workers: boolean; pollSeconds: number };
  /** Reminder delivery (docs/decisions/reminder-delivery.md). */
  reminders: { attemptSeconds: number; retryDelaySeconds: number; retryLimit: number };
}

export function parseJobs(vars: z.infer<typeof jobsEnv>): JobsSection {
  return {
    jobs: { workers: vars.WORKERS !== 'off', pollSeconds: vars.JOB_POLL_SECONDS ?? 2 },
    reminders: {
      attemptSeconds: vars.REMINDER_ATTEMPT_SECONDS ?? 60,
      retryDelaySeconds: vars.REMINDER_RETRY_DELAY_SECONDS ?? 30,
      retryLimit: vars.REMINDER_RETRY_LIMIT ?? 8,
    },
  };
}

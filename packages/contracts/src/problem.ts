import { z } from 'zod';

/** RFC 9457 problem details, the body of every error answer
 *  (docs/decisions/architecture.md#api-conventions). */
export const problem = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string(),
  instance: z.string().optional(),
  /** Field name (dotted path) to its messages, for validation failures. */
  errors: z.record(z.string(), z.array(z.string())).optional(),
});
export type Problem = z.infer<typeof problem>;

export const problemContentType = 'application/problem+json';

/**
 * Problem `type`s a client acts on (the rest are `about:blank`): tag URIs, stable identifiers that
 * are not meant to be fetched (docs/decisions/session-timeouts.md).
 */
export const problemTypes = {
  /** 401: the session ended after the idle timeout without any API use. */
  sessionIdle: 'tag:dentalcompanion.example,2026:session-idle',
  /** 401: the session reached its absolute lifetime. */
  sessionLifetime: 'tag:dentalcompanion.example,2026:session-lifetime',
  /** 403: the action needs a recent sign-in; re-check the password and try again. */
  reauthenticationRequired: 'tag:dentalcompanion.example,2026:reauthentication-required',
  /** 401: a share link needs its passcode (none sent, or a wrong one); the page asks for it. */
  sharePasscode: 'tag:dentalcompanion.example,2026:share-passcode',
  /** 403: a staff account has no second factor yet; the console walks them through enrolment
   *  (docs/decisions/clinic-staff.md). */
  secondFactorRequired: 'tag:dentalcompanion.example,2026:second-factor-required',
  /** 403: the plan's allowance is spent (a report, docs/decisions/reports.md); the member stays
   *  signed in and reads the detail. */
  planLimitReached: 'tag:dentalcompanion.example,2026:plan-limit-reached',
} as const;

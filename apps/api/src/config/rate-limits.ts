import { z } from 'zod';
import { optional, positiveInt } from './fields';

/** How often one client, address or member may try something. */
export const rateLimitsEnv = z.object({
  RATE_LIMIT_WINDOW_SECONDS: optional(positiveInt('RATE_LIMIT_WINDOW_SECONDS')),
  RATE_LIMIT_PER_IP: optional(positiveInt('RATE_LIMIT_PER_IP')),
  RATE_LIMIT_PER_EMAIL: optional(positiveInt('RATE_LIMIT_PER_EMAIL')),
  INVITES_PER_MEMBER_PER_DAY: optional(positiveInt('INVITES_PER_MEMBER_PER_DAY')),
  INVITES_PER_ADDRESS_PER_DAY: optional(positiveInt('INVITES_PER_ADDRESS_PER_DAY')),
  LOGIN_LOCK_AFTER_FAILURES: optional(positiveInt('LOGIN_LOCK_AFTER_FAILURES')),
  LOGIN_LOCK_SECONDS: optional(positiveInt('LOGIN_LOCK_SECONDS')),
  LOGIN_LOCK_MAX_SECONDS: optional(positiveInt('LOGIN_LOCK_MAX_SECONDS')),
  UPLOADS_PER_MINUTE: optional(positiveInt('UPLOADS_PER_MINUTE')),
});

export interface RateLimitsSection {
  rateLimit: RateLimitConfig;
  /** Photo, record and Dental AI uploads one member may make per minute
   *  (docs/decisions/upload-decoding-limits.md). */
  uploadsPerMinute: number;
}

export interface RateLimitConfig {
  windowSeconds: number;
  /** Attempts one client address may make per window on each limited route. */
  perIp: number;
  /** Attempts against one e-mail address per window on register and forget-password. */
  perEmail: number;
  /** Invitations to view a record one member may send per day
   *  (docs/decisions/invitation-limits.md). */
  invitationsPerMember: number;
  /** Invitations one e-mail address may receive per day, from all members together. */
  invitationsPerAddress: number;
  /** Failed logins of one (e-mail, client address) pair that lock it
   *  (docs/decisions/login-throttling.md). */
  loginLockAfterFailures: number;
  /** The first lock; each further failure doubles it, up to `loginLockMaxSeconds`. */
  loginLockSeconds: number;
  loginLockMaxSeconds: number;
}

export function parseRateLimits(vars: z.infer<typeof rateLimitsEnv>): RateLimitsSection {
  return {
    uploadsPerMinute: vars.UPLOADS_PER_MINUTE ?? 30,
    rateLimit: {
      windowSeconds: vars.RATE_LIMIT_WINDOW_SECONDS ?? 15 * 60,
      perIp: vars.RATE_LIMIT_PER_IP ?? 100,
      perEmail: vars.RATE_LIMIT_PER_EMAIL ?? 10,
      invitationsPerMember: vars.INVITES_PER_MEMBER_PER_DAY ?? 10,
      invitationsPerAddress: vars.INVITES_PER_ADDRESS_PER_DAY ?? 3,
      loginLockAfterFailures: vars.LOGIN_LOCK_AFTER_FAILURES ?? 5,
      loginLockSeconds: vars.LOGIN_LOCK_SECONDS ?? 60,
      loginLockMaxSeconds: vars.LOGIN_LOCK_MAX_SECONDS ?? 60 * 60,
    },
  };
}

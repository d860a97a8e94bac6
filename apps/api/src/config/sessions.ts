import { z } from 'zod';
import { optional, positiveInt } from './fields';

/** How long a session lasts. */
export const sessionsEnv = z.object({
  SESSION_IDLE_MINUTES: optional(positiveInt('SESSION_IDLE_MINUTES')),
  SESSION_MAX_HOURS: optional(positiveInt('SESSION_MAX_HOURS')),
  SESSION_REAUTH_MINUTES: optional(positiveInt('SESSION_REAUTH_MINUTES')),
});

export interface SessionsSection {
  /** Automatic logoff (docs/decisions/session-timeouts.md). */
  session: SessionTimeouts;
}

export interface SessionTimeouts {
  /** A session without any API use for this long ends. */
  idleMinutes: number;
  /** A session ends this long after its sign-in, however busy. */
  maxHours: number;
  /** Deactivation needs a sign-in or a password re-check this recent. */
  reauthMinutes: number;
}

export function parseSessions(vars: z.infer<typeof sessionsEnv>): SessionsSection {
  return {
    session: {
      idleMinutes: vars.SESSION_IDLE_MINUTES ?? 30,
      maxHours: vars.SESSION_MAX_HOURS ?? 12,
      reauthMinutes: vars.SESSION_REAUTH_MINUTES ?? 10,
    },
  };
}

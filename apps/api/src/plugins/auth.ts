import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { AccountRole } from '@dental/contracts';
import { Forbidden, Unauthorized } from '../domain-errors';

declare module 'fastify' {
  interface FastifyInstance {
    /** onRequest hook for routes that need a logged-in, active member. */
    authenticate: (request: FastifyRequest) => Promise<void>;
    /** preHandler hook, after `authenticate`, of the sensitive actions: signed in or re-checked
     *  (password or second-factor code) within the last 10 minutes, else 403
     *  (docs/decisions/session-timeouts.md). */
    requireRecentSignIn: (request: FastifyRequest) => Promise<void>;
  }
  interface FastifyContextConfig {
    /** Set from `staffMayUse`: a staff account may call this member route (its own account). */
    staffMayUse?: boolean;
  }
  interface FastifyRequest {
    /** Set by `app.authenticate`; only read it on routes that use that hook. */
    user: AuthenticatedUser;
  }
}

/** What a valid access token says: whose it is and which session (refresh family) it belongs to. */
export interface AccessClaims {
  userId: string;
  sessionId: string;
}

/** The member a request acts for, once `app.authenticate` has checked the token and session. */
export interface AuthenticatedUser {
  id: string;
  sessionId: string;
  /** When the member last proved who they are in this session. */
  authenticatedAt: Date;
  role: AccountRole;
}

/** The plugin's ports, implemented by the auth module and wired in app.ts. */
export interface AuthOptions {
  /** The token's claims when its signature and lifetime are good, else null. */
  verifyAccessToken(token: string): AccessClaims | null;
  /** The member if the token's session has not ended and the account is not deactivated; one
   *  query. Throws when the session timed out. */
  findActiveSession(claims: AccessClaims): Promise<AuthenticatedUser | null>;
  /** Throws (403) unless the member proved who they are recently enough for a sensitive action. */
  assertRecentlyAuthenticated(user: AuthenticatedUser): void;
  /** The routes of `authenticate` that staff accounts may call too, as 'METHOD /url' (their own
   *  account and its security); every other one refuses them (docs/decisions/clinic-staff.md). */
  staffMayUse: readonly string[];
}

/** The ports that turn a request's bearer token into its account; the staff guard shares them. */
export type SessionLookup = Pick<AuthOptions, 'verifyAccessToken' | 'findActiveSession'>;

export const loginRequiredMessage = 'Please log in to continue.';
export const sessionExpiredMessage = 'Your session has ended. Please log in again.';
export const staffOnMemberRouteMessage =
  'A staff account has no patient records. Use a member account to keep your own.';

const bearer = /^Bearer ([A-Za-z0-9\-_.]+)$/;

/** The account of the request's bearer token, whatever its role; 401 without a live session. */
export async function accountOf(
  request: FastifyRequest,
  lookup: SessionLookup,
): Promise<AuthenticatedUser> {
  const token = bearer.exec(request.headers.authorization ?? '')?.[1];
  if (token === undefined) throw new Unauthorized(loginRequiredMessage);
  const claims = lookup.verifyAccessToken(token);
  const user = claims === null ? null : await lookup.findActiveSession(claims);
  if (user === null) throw new Unauthorized(sessionExpiredMessage);
  return user;
}

/**
 * Bearer access tokens. The session and account are loaded on every request so that a token of
 * an ended session or a deactivated member is refused at once
 * (docs/decisions/session-timeouts.md).
 */
export const authPlugin = fp(
  (app: FastifyInstance, options: AuthOptions) => {
    const users = new WeakMap<FastifyRequest, AuthenticatedUser>();
    app.decorateRequest('user', {
      getter(this: FastifyRequest) {
        const user = users.get(this);
        // A programming error, not a client one: the route forgot `onRequest: app.authenticate`.
        if (user === undefined)
          throw new Error('request.user read on a route without authenticate');
        return user;
      },
      setter(this: FastifyRequest, user: AuthenticatedUser) {
        users.set(this, user);
      },
    });
    const unmatched = new Set(options.staffMayUse);
    app.addHook('onRoute', (route) => {
      const key = `${[route.method].flat().join(',')} ${route.url}`;
      if (!unmatched.delete(key)) return;
      if (![route.onRequest].flat().includes(app.authenticate)) {
        throw new Error(`${key} is open to staff but does not use authenticate`);
      }
      route.config = { ...route.config, staffMayUse: true };
    });
    app.addHook('onReady', () =>
      unmatched.size > 0
        ? Promise.reject(
            new Error(`Routes open to staff that do not exist: ${[...unmatched].join(', ')}`),
          )
        : Promise.resolve(),
    );
    app.decorate('authenticate', async (request: FastifyRequest) => {
      const user = await accountOf(request, options);
      // Staff accounts hold no patient record: only their own account's routes let them in.
      if (user.role !== 'member' && request.routeOptions.config.staffMayUse !== true) {
        throw new Forbidden(staffOnMemberRouteMessage);
      }
      request.user = user;
    });
    app.decorate('requireRecentSignIn', (request: FastifyRequest) => {
      options.assertRecentlyAuthenticated(request.user);
      return Promise.resolve();
    });
    return Promise.resolve();
  },
  { name: 'auth' },
);

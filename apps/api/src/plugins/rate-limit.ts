import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import fastifyRateLimit, {
  normalizeIP,
  type FastifyRateLimitStore,
  type FastifyRateLimitStoreCtor,
} from '@fastify/rate-limit';
import { messageSendLimit, staffMessageSendLimit, tooManyMessagesMessage } from '@dental/contracts';
import type { Clock } from '../clock';
import type { RateLimitConfig } from '../config';
import type { Database } from '../db/client';
import { RateLimited } from '../domain-errors';
import { RateLimitRepository } from './rate-limit.repository';

/** The routes that guess or spam credentials: each has its own counters. */
export const rateLimitedActions = [
  'login',
  'register',
  'forgetPassword',
  'checkResetKey',
  'confirmEmail',
  'sendEmailConfirmation',
  'reauthenticate',
  'loginWithCode',
  'openSharedLink',
  'inviteDelegate',
  'sendMessage',
  'sendStaffMessage',
  'subscribePush',
] as const;
export type RateLimitedAction = (typeof rateLimitedActions)[number];

declare module 'fastify' {
  interface FastifyInstance {
    /** preHandler hooks (after validation, so the e-mail is known) per limited action. */
    rateLimits: Record<RateLimitedAction, (request: FastifyRequest) => Promise<void>>;
  }
  interface FastifyRequest {
    /** The hashed (e-mail, client address) key of a login whose guess was counted. */
    loginFailureKey?: string;
  }
}

/** The lock on login guesses per (e-mail, client address): the auth module's, built once in
 *  services.ts (docs/decisions/login-throttling.md). */
export interface LoginGuessLock {
  /** Counts one guess for `key`; 429 while the key is locked. */
  reserve(key: string, now: Date): Promise<void>;
  /** A right password clears the key. */
  clear(key: string): Promise<void>;
  /** Drops the keys whose guesses are forgotten. */
  deleteForgotten(now: Date): Promise<void>;
}

export interface RateLimitOptions {
  db: Database;
  clock: Clock;
  limits: RateLimitConfig;
  loginGuesses: LoginGuessLock;
}

/** Ended windows are swept at most this often, by whichever process hits the store. */
const sweepIntervalMs = 60_000;

/** Adapts the database counters to @fastify/rate-limit's store interface. */
function databaseStore(repository: RateLimitRepository, clock: Clock): FastifyRateLimitStoreCtor {
  let lastSweep = 0;
  return class DatabaseRateLimitStore implements FastifyRateLimitStore {
    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
    ): void {
      const now = clock.now();
      let sweep = Promise.resolve();
      if (now.getTime() - lastSweep >= sweepIntervalMs) {
        lastSweep = now.getTime();
        sweep = repository.deleteEnded(now);
      }
      // Keys hold e-mail and client addresses; only their hashes are stored.
      Promise.all([repository.hit(hash(key), timeWindow, now), sweep]).then(
        ([count]) => {
          const ttl = Math.max(0, count.windowEndsAt.getTime() - now.getTime());
          callback(null, { current: count.hits, ttl });
        },
        (error: unknown) => {
          callback(error instanceof Error ? error : new Error(String(error)));
        },
      );
    }

    child(): FastifyRateLimitStore {
      return this;
    }
  };
}

const hash = (key: string) => createHash('sha256').update(key).digest('base64url');

const dayMs = 24 * 60 * 60 * 1000;

/** One sentence for both invitation limits: it does not tell whether others invited the same
 *  address. */
export const tooManyInvitationsMessage = (seconds: number) => {
  const hours = Math.max(1, Math.ceil(seconds / 3600));
  return `Too many invitations have been sent today. Please try again in ${String(hours)} hour${hours === 1 ? '' : 's'}.`;
};

function emailOf(request: FastifyRequest): string | undefined {
  const body = request.body;
  if (typeof body !== 'object' || body === null || !('email' in body)) return undefined;
  return typeof body.email === 'string' ? body.email.trim().toLowerCase() : undefined;
}

/**
 * Register and forget-password are limited per client address AND per e-mail address
 * (docs/decisions/rate-limits.md); login per client address, and its failures per (e-mail,
 * client address) with growing locks (docs/decisions/login-throttling.md). Going over answers
 * 429 with Retry-After.
 */
export const rateLimitPlugin = fp(
  async (app: FastifyInstance, { db, clock, limits, loginGuesses }: RateLimitOptions) => {
    await app.register(fastifyRateLimit, {
      global: false,
      store: databaseStore(new RateLimitRepository(db), clock),
    });
    const timeWindow = limits.windowSeconds * 1000;

    /** A check that counts the request under its key and throws once the window is full. */
    const limiter = (
      max: number,
      window: number,
      keyOf: (request: FastifyRequest) => string,
      detailOf?: (retryAfterSeconds: number) => string,
    ) => {
      const count = app.createRateLimit({ max, timeWindow: window, keyGenerator: keyOf });
      return async (request: FastifyRequest) => {
        const result = await count(request);
        if (!result.isAllowed && result.isExceeded) {
          throw new RateLimited(result.ttlInSeconds, detailOf?.(result.ttlInSeconds));
        }
      };
    };

    const policy = (action: RateLimitedAction) => {
      const perIp = limiter(
        limits.perIp,
        timeWindow,
        (request) => `${action}:ip:${normalizeIP(request.ip)}`,
      );
      const perEmail = limiter(
        limits.perEmail,
        timeWindow,
        (request) => `${action}:email:${emailOf(request) ?? ''}`,
      );
      return async (request: FastifyRequest) => {
        await perIp(request);
        if (action !== 'login' && emailOf(request) !== undefined) await perEmail(request);
      };
    };

    // Each invitation e-mails an address the member chose: a day's allowance per member, and
    // per address from all members together, so nobody turns the invitation into a mail cannon
    // (docs/decisions/invitation-limits.md). Runs after authentication, so the member is known.
    const invitationsByMember = limiter(
      limits.invitationsPerMember,
      dayMs,
      (request) => `inviteDelegate:member:${request.user.id}`,
      tooManyInvitationsMessage,
    );
    const invitationsToAddress = limiter(
      limits.invitationsPerAddress,
      dayMs,
      (request) => `inviteDelegate:email:${emailOf(request) ?? ''}`,
      tooManyInvitationsMessage,
    );

    // Messages per account, a member's and (more) a staff member's: the counter is one row
    // updated atomically, so parallel sends cannot pass it (docs/decisions/care-messages.md).
    const messagesPerAccount = (limit: { max: number; windowSeconds: number }) =>
      limiter(
        limit.max,
        limit.windowSeconds * 1000,
        (request) => `sendMessage:account:${request.user.id}`,
        tooManyMessagesMessage,
      );

    let lastSweep = 0;
    const perAddress = policy('login');
    const login = async (request: FastifyRequest) => {
      await perAddress(request);
      const email = emailOf(request);
      if (email === undefined) return;
      const key = hash(`login:failures:${email}:${normalizeIP(request.ip)}`);
      const now = clock.now();
      if (now.getTime() - lastSweep >= sweepIntervalMs) {
        lastSweep = now.getTime();
        await loginGuesses.deleteForgotten(now);
      }
      // Counted before the password is checked, so concurrent guesses cannot pass the lock.
      await loginGuesses.reserve(key, now);
      request.loginFailureKey = key;
    };
    // A right password clears the pair before the answer leaves.
    app.addHook('onSend', async (request, reply) => {
      const key = request.loginFailureKey;
      if (key !== undefined && reply.statusCode < 300) await loginGuesses.clear(key);
    });

    app.decorate('rateLimits', {
      login,
      register: policy('register'),
      forgetPassword: policy('forgetPassword'),
      // Per address: nobody walks reset keys through the check (docs/decisions/password-reset.md).
      checkResetKey: policy('checkResetKey'),
      // Per address, counted in the database before the key is looked up: nobody walks
      // confirmation keys, and a resend or a change of address cannot flood a mailbox
      // (docs/decisions/email-confirmation.md).
      confirmEmail: policy('confirmEmail'),
      sendEmailConfirmation: policy('sendEmailConfirmation'),
      // Per address here; wrong passwords also lock the member's re-checks (PasswordRecheckService).
      reauthenticate: policy('reauthenticate'),
      // Wrong codes also lock the member's second step (docs/decisions/second-factor.md).
      loginWithCode: policy('loginWithCode'),
      // Share links are opened without an account: per address, so no one walks tokens or
      // passcodes quickly (docs/decisions/share-links.md).
      openSharedLink: policy('openSharedLink'),
      inviteDelegate: async (request) => {
        await invitationsByMember(request);
        await invitationsToAddress(request);
      },
      sendMessage: messagesPerAccount(messageSendLimit),
      sendStaffMessage: messagesPerAccount(staffMessageSendLimit),
      // Per address: each subscription is a row, so nobody fills the table (docs/decisions/web-push.md).
      subscribePush: policy('subscribePush'),
    });
  },
  { name: 'rate-limit' },
);

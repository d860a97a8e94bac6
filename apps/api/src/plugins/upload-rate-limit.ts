import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Clock } from '../clock';
import type { Database } from '../db/client';
import { RateLimited } from '../domain-errors';
import { RateLimitRepository } from './rate-limit.repository';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Carries a file to decode and store: counts toward the member's uploads per minute. */
    upload?: boolean;
  }
}

export const tooManyUploadsMessage = (seconds: number) =>
  `You have uploaded many files in a short time. Please try again in ${String(seconds)} second${seconds === 1 ? '' : 's'}.`;

/** Too many uploads from one member within the minute: 429 with Retry-After. */
export class TooManyUploads extends RateLimited {
  override readonly detail: string;

  constructor(retryAfterSeconds: number) {
    super(retryAfterSeconds);
    this.detail = tooManyUploadsMessage(retryAfterSeconds);
    this.message = this.detail;
  }
}

const windowMs = 60_000;

/**
 * At most `perMinute` uploads per member per minute on the routes marked `config.upload`,
 * counted in the database like the sign-in limits so that every API process counts together
 * (docs/decisions/upload-decoding-limits.md).
 */
export const uploadRateLimitPlugin = fp(
  (
    app: FastifyInstance,
    { db, clock, perMinute }: { db: Database; clock: Clock; perMinute: number },
  ) => {
    const counters = new RateLimitRepository(db);
    app.addHook('preHandler', async (request) => {
      if (request.routeOptions.config.upload !== true) return;
      const now = clock.now();
      const key = createHash('sha256')
        .update(`upload:member:${request.user.id}`)
        .digest('base64url');
      const count = await counters.hit(key, windowMs, now);
      if (count.hits > perMinute) {
        throw new TooManyUploads(
          Math.max(1, Math.ceil((count.windowEndsAt.getTime() - now.getTime()) / 1000)),
        );
      }
    });
    return Promise.resolve();
  },
  { name: 'upload-rate-limit', dependencies: ['auth'] },
);

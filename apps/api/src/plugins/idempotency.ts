import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Clock } from '../clock';
import type { Database } from '../db/client';
import { unlessDatabaseAway } from '../db/database-outage';
import { BadRequest, Conflict, UnprocessableEntity } from '../domain-errors';
import { IdempotencyRepository } from './idempotency.repository';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Creates something: an `Idempotency-Key` header makes retries answer the first answer. */
    idempotent?: boolean;
  }
  interface FastifyRequest {
    /** The key this request claimed, until its answer is stored. */
    idempotencyKey?: string;
  }
}

export const idempotencyKeyLifetimeMs = 24 * 60 * 60 * 1000;
const sweepIntervalMs = 60_000;

export const invalidIdempotencyKeyMessage =
  'The Idempotency-Key header must be 1 to 255 visible ASCII characters.';
export const idempotencyKeyReusedMessage =
  'This Idempotency-Key was already used for a different request. Use a new key for a new request.';
export const idempotencyKeyInFlightMessage =
  'A request with this Idempotency-Key is still being answered. Try again in a moment.';

const validKey = /^[\x21-\x7e]{1,255}$/;

function keyOf(request: FastifyRequest): string | undefined {
  const header = request.headers['idempotency-key'];
  if (header === undefined) return undefined;
  const key = Array.isArray(header) ? header.join(',') : header;
  if (!validKey.test(key)) {
    throw new BadRequest(invalidIdempotencyKeyMessage, {
      'Idempotency-Key': [invalidIdempotencyKeyMessage],
    });
  }
  return key;
}

/** Method, path and body: what makes a retry the same request. */
function fingerprintOf(request: FastifyRequest): string {
  return createHash('sha256')
    .update(`${request.method} ${request.url}\n${JSON.stringify(request.body ?? null)}`)
    .digest('base64url');
}

/**
 * `Idempotency-Key` on the routes that create something (route config `idempotent: true`;
 * docs/decisions/idempotency-keys.md): the first request with a key claims it, and its answer
 * is stored; a retry with the same key and request within 24 hours gets that answer again and
 * creates nothing. Keys are per member.
 */
export const idempotencyPlugin = fp(
  (app: FastifyInstance, { db, clock }: { db: Database; clock: Clock }) => {
    const repository = new IdempotencyRepository(db);
    let lastSweep = 0;

    app.addHook('preHandler', async (request, reply) => {
      if (request.routeOptions.config.idempotent !== true) return;
      const key = keyOf(request);
      if (key === undefined) return;
      const userId = request.user.id;
      const fingerprint = fingerprintOf(request);
      const now = clock.now();
      const cutoff = new Date(now.getTime() - idempotencyKeyLifetimeMs);
      if (now.getTime() - lastSweep >= sweepIntervalMs) {
        lastSweep = now.getTime();
        await repository.deleteCreatedBefore(cutoff);
      }
      if (await repository.claim(userId, key, fingerprint, now)) {
        request.idempotencyKey = key;
        return;
      }
      const first = await repository.find(userId, key);
      if (first === undefined || first.createdAt < cutoff) {
        // Expired (or let go of) since: this request starts afresh under the key.
        if (first !== undefined) await repository.deleteCreatedBefore(cutoff);
        if (await repository.claim(userId, key, fingerprint, now)) {
          request.idempotencyKey = key;
          return;
        }
        throw new Conflict(idempotencyKeyInFlightMessage);
      }
      if (first.fingerprint !== fingerprint)
        throw new UnprocessableEntity(idempotencyKeyReusedMessage);
      if (first.status === null || first.responseBody === null) {
        throw new Conflict(idempotencyKeyInFlightMessage);
      }
      void reply.header('idempotent-replayed', 'true');
      if (first.contentType !== null) void reply.type(first.contentType);
      return reply.code(first.status).send(first.responseBody);
    });

    // Stored before the answer leaves, so a retry that arrives right after it finds it.
    app.addHook('onSend', async (request, reply, payload) => {
      const key = request.idempotencyKey;
      if (key === undefined) return payload;
      request.idempotencyKey = undefined;
      const userId = request.user.id;
      // A server error or a streamed answer is not replayed: the retry runs again.
      if (reply.statusCode >= 500 || typeof payload !== 'string') {
        await unlessDatabaseAway(repository.release(userId, key));
        return payload;
      }
      const contentType = reply.getHeader('content-type');
      await repository.complete(userId, key, {
        status: reply.statusCode,
        contentType: typeof contentType === 'string' ? contentType : null,
        body: payload,
      });
      return payload;
    });

    // A request that ends without an answer (the client went away) lets go of its key.
    const releaseUnanswered = async (request: FastifyRequest) => {
      const key = request.idempotencyKey;
      if (key === undefined) return;
      request.idempotencyKey = undefined;
      await repository.release(request.user.id, key);
    };
    app.addHook('onResponse', releaseUnanswered);
    app.addHook('onRequestAbort', releaseUnanswered);
    return Promise.resolve();
  },
  { name: 'idempotency', dependencies: ['auth'] },
);

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

/** A dependency the app cannot serve without; throws (or times out) when it is unreachable. */
export type ReadinessCheck = () => Promise<void>;

export interface HealthOptions {
  /** Named checks, run side by side on every readiness probe. */
  checks: Record<string, ReadinessCheck>;
  /** Each check is given this long; a slower one counts as failed. */
  timeoutMs: number;
}

export const healthPaths = { live: '/api/health/live', ready: '/api/health/ready' } as const;

const checkOutcome = z.enum(['ok', 'failed', 'timeout']);
const readiness = z.object({
  status: z.enum(['ready', 'unavailable']),
  /** The components that failed, so a probe's log says which one. */
  failed: z.array(z.string()),
  checks: z.record(z.string(), checkOutcome),
});

class CheckTimeout extends Error {
  override name = 'CheckTimeout';
}

async function withTimeout(check: ReadinessCheck, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          reject(new CheckTimeout());
        }, timeoutMs);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Liveness and readiness probes for load balancers and orchestrators
 * (docs/decisions/health-metrics-shutdown.md): no authentication, no member data, never cached.
 * The answer names components only; why one failed goes to the log.
 */
export const healthPlugin: FastifyPluginAsyncZod<HealthOptions> = (app, options) => {
  const noStore = { 'cache-control': 'no-store' };
  app.get(
    healthPaths.live,
    {
      schema: {
        tags: ['health'],
        summary: 'The process answers',
        response: { 200: z.object({ status: z.literal('ok') }) },
      },
    },
    async (_request, reply) => reply.headers(noStore).send({ status: 'ok' as const }),
  );

  app.get(
    healthPaths.ready,
    {
      schema: {
        tags: ['health'],
        summary: 'The database, file store, job queue and Dental AI models are reachable',
        response: { 200: readiness, 503: readiness },
      },
    },
    async (request, reply) => {
      const checks = Object.entries(options.checks);
      const outcomes = await Promise.all(
        checks.map(async ([name, check]) => {
          try {
            await withTimeout(check, options.timeoutMs);
            return [name, 'ok'] as const;
          } catch (error) {
            request.log.warn({ err: error, component: name }, 'readiness check failed');
            return [name, error instanceof CheckTimeout ? 'timeout' : 'failed'] as const;
          }
        }),
      );
      const failed = outcomes.filter(([, outcome]) => outcome !== 'ok').map(([name]) => name);
      return reply
        .code(failed.length === 0 ? 200 : 503)
        .headers(noStore)
        .send({
          status: failed.length === 0 ? 'ready' : 'unavailable',
          failed,
          checks: Object.fromEntries(outcomes),
        });
    },
  );
  return Promise.resolve();
};

import { createHash, timingSafeEqual } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Unauthorized } from '../domain-errors';
import type { Metrics } from '../lib/metrics';
import { sendProblem, toProblem } from './errors';

export const metricsPath = '/metrics';

export interface MetricsPluginOptions {
  metrics: Metrics;
  /** Scrapes must send `Authorization: Bearer <token>`. */
  token: string | undefined;
  /** Serve the metrics on a listener of their own (started with the app); unset means on
   *  the app itself, which needs the token. Neither set: recorded, never served. */
  port: number | undefined;
  host: string;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Compares hashes, so neither the token's length nor its bytes leak through timing. */
function hasToken(request: FastifyRequest, token: string): boolean {
  const header = request.headers.authorization ?? '';
  const given = header.startsWith('Bearer ') ? header.slice('Bearer '.length) : '';
  return timingSafeEqual(digest(given), digest(token));
}

function addMetricsRoute(app: FastifyInstance, metrics: Metrics, token: string | undefined): void {
  app.get(metricsPath, { schema: { hide: true } }, async (request, reply) => {
    if (token !== undefined && !hasToken(request, token)) {
      // Answered here: the listener of its own has no errors plugin.
      return sendProblem(
        reply.header('www-authenticate', 'Bearer'),
        toProblem(new Unauthorized('A valid metrics token is required.')),
      );
    }
    const { contentType, body } = await metrics.exposition();
    return reply.header('cache-control', 'no-store').type(contentType).send(body);
  });
}

/**
 * Counts and times every request by its route pattern (`/api/oral-photo/:id/`, never the URL,
 * whose ids would make a series per member), and serves `/metrics` as configured
 * (docs/decisions/health-metrics-shutdown.md).
 */
export const metricsPlugin = fp((app: FastifyInstance, options: MetricsPluginOptions) => {
  const { metrics, token, port, host } = options;
  app.addHook('onResponse', (request, reply, done) => {
    // No route matched (a 404, or a request refused before routing): one series for all of them.
    const route = request.routeOptions.url ?? 'unmatched';
    const labels = { method: request.method, route, status_code: String(reply.statusCode) };
    metrics.httpRequests.inc(labels);
    metrics.httpDuration.observe(labels, reply.elapsedTime / 1000);
    if (reply.statusCode >= 500) metrics.httpErrors.inc({ method: request.method, route });
    done();
  });

  if (port === undefined) {
    if (token !== undefined) addMetricsRoute(app, metrics, token);
    return Promise.resolve();
  }
  const listener = Fastify({ loggerInstance: app.log });
  addMetricsRoute(listener, metrics, token);
  // Listening once the app is ready: a taken port fails the start instead of hiding the metrics.
  app.addHook('onReady', async () => {
    await listener.listen({ host, port });
  });
  app.addHook('onClose', () => listener.close());
  return Promise.resolve();
});

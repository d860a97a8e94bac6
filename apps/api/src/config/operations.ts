import { z } from 'zod';
import { ConfigError, optional, portNumber, positiveInt } from './fields';

export const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof logLevels)[number];

/** Running the process: its log, its metrics and how long a shutdown may take. */
export const operationsEnv = z.object({
  LOG_LEVEL: optional(z.enum(logLevels)),
  METRICS_TOKEN: optional(
    z.string().min(32, 'METRICS_TOKEN must be at least 32 characters (use a random value).'),
  ),
  METRICS_PORT: optional(portNumber('METRICS_PORT', 0)),
  SHUTDOWN_TIMEOUT_SECONDS: optional(positiveInt('SHUTDOWN_TIMEOUT_SECONDS')),
});

export interface OperationsSection {
  logLevel: LogLevel;
  /** Prometheus metrics; off unless a token or a port is set
   *  (docs/decisions/health-metrics-shutdown.md). */
  metrics: MetricsSettings;
  /** On SIGTERM, requests in flight and running jobs get this long before they are cut off. */
  shutdownTimeoutSeconds: number;
}

export interface MetricsSettings {
  /** `GET /metrics` needs `Authorization: Bearer <token>`, on the API port unless `port` is set. */
  token: string | undefined;
  /** `GET /metrics` on a listener of its own on this port (and HOST), not on the API port. */
  port: number | undefined;
}

export function parseOperations(
  vars: z.infer<typeof operationsEnv>,
  apiPort: number,
): OperationsSection {
  return {
    logLevel: vars.LOG_LEVEL ?? 'info',
    metrics: parseMetrics(vars, apiPort),
    shutdownTimeoutSeconds: vars.SHUTDOWN_TIMEOUT_SECONDS ?? 10,
  };
}

/** Metrics need a port of their own or a token; never the API port itself without a token. */
function parseMetrics(vars: z.infer<typeof operationsEnv>, apiPort: number): MetricsSettings {
  if (vars.METRICS_PORT !== undefined && vars.METRICS_PORT !== 0 && vars.METRICS_PORT === apiPort) {
    throw new ConfigError(
      'Invalid configuration:\n  METRICS_PORT must differ from PORT (leave it unset to serve metrics on PORT with METRICS_TOKEN).',
    );
  }
  return { token: vars.METRICS_TOKEN, port: vars.METRICS_PORT };
}

import type { FastifyLoggerOptions, FastifyRequest } from 'fastify';
import { DrizzleQueryError } from 'drizzle-orm';
import { createRequire } from 'node:module';
import type PinoPretty from 'pino-pretty';
import type { LogLevel } from './config';

/**
 * The one logging port of services, jobs and adapters: Fastify's pino logger satisfies it, and a
 * process without one (the worker) passes its own.
 */
export interface ErrorLogger {
  error(details: object, message: string): void;
  /** Something refused that may be an attack or a misconfiguration; error when absent. */
  warn?(details: object, message: string): void;
}

/** Errors only, one JSON line each on stderr: for a process without a request log (the worker). */
export const stderrLogger: ErrorLogger = {
  error: (details, message) => {
    const err = 'err' in details && details.err instanceof Error ? details.err : undefined;
    process.stderr.write(
      `${JSON.stringify({ level: 'error', time: new Date().toISOString(), msg: message, ...details, ...(err ? { err: { type: err.name, message: err.message } } : {}) })}\n`,
    );
  },
};

/**
 * Standard output and error are pipes to whoever started the process. When that reader goes away,
 * the next write fails with EPIPE, and an 'error' event nobody hears would end the process and
 * every request in flight. A server without a console keeps serving: its log lines are lost,
 * nothing it acknowledged is.
 */
export function keepRunningWithoutConsole(): void {
  for (const output of [process.stdout, process.stderr]) output.on('error', () => undefined);
}

/** Anything with a `write(line)` method: stdout, a file stream, a test's capture. */
export interface LogDestination {
  write(line: string): void;
}

/** Standard output, or whatever stands in for it in a test. */
export interface ConsoleOutput extends LogDestination {
  isTTY?: boolean;
}

/**
 * Readable lines for a person at a terminal; one JSON object per line everywhere else, for log
 * collectors (docs/decisions/start-and-runtime.md). Redaction happens before either.
 */
export function consoleDestination(output: ConsoleOutput = process.stdout): LogDestination {
  if (output.isTTY !== true) return output;
  // Loaded only for a terminal: a server under a supervisor writes JSON and never needs it.
  const { prettyFactory } = createRequire(import.meta.url)('pino-pretty') as typeof PinoPretty;
  const prettify = prettyFactory({
    colorize: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname',
  });
  // Synchronous like the JSON lines: nothing is lost when the process exits.
  return {
    write: (line) => {
      output.write(prettify(line));
    },
  };
}

/**
 * Query-string parameters that carry a secret (reset keys in /update-password?key=…), and the
 * signature and file name of a signed file link (/api/files/…?name=…&sig=…), and the ticket of
 * a live message stream (/api/messages/events/?ticket=…).
 */
const secretParams = /([?&](?:key|token|access|refresh|password|code|sig|name|ticket)=)[^&#]*/gi;

/**
 * Path segments that are the credential themselves: a share link's token, on its page (/s/…)
 * and its API call (/api/shared/…/), and a calendar feed's (/api/calendar/…/feed.ics).
 */
const secretSegments = /^(\/s\/|\/api\/shared\/|\/api\/calendar\/)[^/?#]+/i;

export function redactUrl(url: string): string {
  return url.replace(secretSegments, '$1[Redacted]').replace(secretParams, '$1[Redacted]');
}

interface SerializedError {
  type: string;
  message: string;
  stack: string;
  code?: unknown;
  cause?: SerializedError;
  [key: string]: unknown;
}

/**
 * Type, message, stack, code and cause only. A failed query's message lists its parameters
 * (password hashes, token hashes), so only the SQL text is kept from it.
 */
export function serializeError(error: unknown): SerializedError {
  if (!(error instanceof Error)) return { type: typeof error, message: String(error), stack: '' };
  const message =
    error instanceof DrizzleQueryError ? `Failed query: ${error.query}` : error.message;
  // The stack starts with the message, so it gets the same treatment.
  const stack = (error.stack ?? '').replace(error.message, message);
  return {
    type: error.name,
    message,
    stack,
    ...('code' in error ? { code: error.code } : {}),
    ...(error.cause === undefined ? {} : { cause: serializeError(error.cause) }),
  };
}

/**
 * pino through Fastify: one line per request with its id; request bodies are never logged and
 * credentials are redacted wherever they could appear.
 */
export function loggerOptions(
  level: LogLevel,
  stream?: LogDestination,
): FastifyLoggerOptions & { redact: { paths: string[]; censor: string } } {
  return {
    level,
    stream: stream ?? consoleDestination(),
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'res.headers["set-cookie"]',
        ...['password', 'refresh', 'access', 'token', 'key'].flatMap((field) => [
          field,
          `*.${field}`,
        ]),
      ],
      censor: '[Redacted]',
    },
    serializers: {
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: redactUrl(request.url),
        host: request.host,
        remoteAddress: request.ip,
        remotePort: request.socket.remotePort,
      }),
      err: serializeError,
    },
  };
}

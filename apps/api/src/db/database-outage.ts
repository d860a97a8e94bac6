import type { ErrorLogger } from '../logger';

/** How long a client is told to wait before trying again while the database is away. */
export const databaseRetryAfterSeconds = 5;

/**
 * SQLSTATEs of a server that is shutting down, starting up or gone (57P01 admin_shutdown,
 * 57P02 crash_shutdown, 57P03 cannot_connect_now) and of the whole class 08, connection exception.
 */
const lostConnectionStates = /^(57P0[123]|08...)$/;

/** Socket errors of a server that is not there (yet) or that dropped the connection. */
const socketErrors = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH']);

/** node-postgres' own words for a connection that ended under a query or a pooled client. */
const lostConnectionMessages = /^(Connection terminated|Client has encountered a connection error)/;

/** An Error, or the copy of one that pg-boss reports for a worker's failed poll. */
interface ErrorLike {
  message: string;
  code?: unknown;
  cause?: unknown;
}

const isErrorLike = (value: unknown): value is ErrorLike =>
  typeof value === 'object' &&
  value !== null &&
  'message' in value &&
  typeof value.message === 'string';

/**
 * The driver's error, when an error or any error it was caused by (drizzle wraps the driver's)
 * says the database connection is gone rather than that the statement was wrong: worth trying
 * again shortly.
 */
export function connectionLossOf(error: unknown): ErrorLike | undefined {
  for (let current = error; isErrorLike(current); current = current.cause) {
    const code = typeof current.code === 'string' ? current.code : '';
    if (lostConnectionStates.test(code) || socketErrors.has(code)) return current;
    if (lostConnectionMessages.test(current.message)) return current;
  }
  return undefined;
}

/**
 * Tells the log once when the database goes away and once when it is back, however many
 * requests, jobs and pooled connections notice it in between (docs/decisions/database-restarts.md).
 */
export class DatabaseOutage {
  private since: number | undefined;
  private restoredAt: number | undefined;

  constructor(private readonly log: ErrorLogger) {}

  /** Whether an outage has been logged and no new connection has been made since. */
  get ongoing(): boolean {
    return this.since !== undefined;
  }

  /**
   * A connection was lost or could not be made: the driver's error (connectionLossOf).
   * `startedAt` is when the connection or request that noticed it began: one from before the
   * database was last back belongs to the outage already told (on a busy machine its error can
   * arrive after a new connection has been made), and is not told again.
   */
  lost(loss: ErrorLike, startedAt?: number): void {
    if (this.since !== undefined) return;
    if (startedAt !== undefined && this.restoredAt !== undefined && startedAt < this.restoredAt) {
      return;
    }
    this.since = Date.now();
    // The driver's code and message only: a failed query's text and parameters stay out.
    this.log.error(
      { code: loss.code, reason: loss.message },
      'database unreachable; requests answer 503 until it is back',
    );
  }

  /** A new connection was made: whatever was lost is back. */
  restored(): void {
    if (this.since === undefined) return;
    this.restoredAt = Date.now();
    const seconds = (Date.now() - this.since) / 1000;
    this.since = undefined;
    (this.log.warn ?? this.log.error).call(this.log, { seconds }, 'database reachable again');
  }
}

/**
 * A hook's write for an answer that is already a server error (the audit row of a 503, letting
 * go of an Idempotency-Key): with the database away it cannot happen, and failing it would
 * replace the problem answer with Fastify's bare default.
 */
export async function unlessDatabaseAway(write: Promise<void>): Promise<void> {
  try {
    await write;
  } catch (error) {
    if (connectionLossOf(error) === undefined) throw error;
  }
}

import { EventEmitter } from 'node:events';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { ErrorLogger } from '../logger';
import type { Database } from './client';

/** A payload, or null when notices may have been missed (the listening connection was lost):
 *  whoever listens then reads the state again. */
export type NotificationListener = (payload: string | null) => void;

/**
 * One channel of small notices between the API processes of a deployment
 * (docs/decisions/care-messages-live.md): PostgreSQL's LISTEN/NOTIFY, or an emitter inside the
 * one process that PGlite allows.
 */
export interface Notifications {
  publish(payload: string): Promise<void>;
  /** Returns the unsubscribe function; a listener that throws is logged, the others still run. */
  subscribe(listener: NotificationListener): () => void;
  /** How many listeners are subscribed (a closed stream must leave none behind). */
  listeners(): number;
  /** Resolves once the channel listens (on PostgreSQL: the first LISTEN, or its first failure). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

export type NotificationsFactory = (channel: string, log: ErrorLogger) => Notifications;

const event = 'notice';

function localFanOut(log: ErrorLogger) {
  const emitter = new EventEmitter();
  // One listener per open stream: the count is bounded by the streams, not by this warning.
  emitter.setMaxListeners(0);
  return {
    deliver: (payload: string | null) => {
      emitter.emit(event, payload);
    },
    subscribe: (listener: NotificationListener) => {
      const guarded = (payload: string | null) => {
        try {
          listener(payload);
        } catch (error) {
          log.error({ err: error }, 'a notification listener failed');
        }
      };
      emitter.on(event, guarded);
      return () => {
        emitter.off(event, guarded);
      };
    },
    listeners: () => emitter.listenerCount(event),
  };
}

/** PGlite: one process holds the database (docs/decisions/data-dir-lock.md), so an emitter. */
export function inProcessNotifications(_channel: string, log: ErrorLogger): Notifications {
  const local = localFanOut(log);
  return {
    publish: (payload) => {
      local.deliver(payload);
      return Promise.resolve();
    },
    subscribe: local.subscribe,
    listeners: local.listeners,
    ready: () => Promise.resolve(),
    close: () => Promise.resolve(),
  };
}

export interface PostgresNotificationsOptions {
  url: string;
  /** Publishes through the app's pool, so a lost listening connection loses no publish. */
  db: Database;
  /** Wait before listening again after the connection was lost (doubling up to 30 s). */
  retryMs?: number;
}

const maxRetryMs = 30_000;

/**
 * PostgreSQL: NOTIFY through the pool, LISTEN on a dedicated connection that is opened again
 * (with a growing wait) whenever it is lost; after each reconnection the listeners get null.
 */
export function postgresNotifications(
  channel: string,
  log: ErrorLogger,
  { url, db, retryMs = 1_000 }: PostgresNotificationsOptions,
): Notifications {
  const local = localFanOut(log);
  let client: pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  let wait = retryMs;
  let listenedOnce = false;
  let firstAttempt: Promise<void> | undefined;

  const listen = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url });
    // A lost connection emits 'error' (then 'end'); without this listener it would end the process.
    next.on('error', (error) => {
      (log.warn ?? log.error).call(log, { err: error, channel }, 'notification connection lost');
    });
    next.on('notification', (notice) => {
      if (notice.channel === channel) local.deliver(notice.payload ?? '');
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch (error) {
      log.error({ err: error, channel }, 'could not listen for notifications');
      await next.end().catch(() => undefined);
      again();
      return;
    }
    if (closed) {
      await next.end().catch(() => undefined);
      return;
    }
    next.once('end', () => {
      if (client !== next) return;
      client = undefined;
      again();
    });
    client = next;
    wait = retryMs;
    // Notices sent while nobody listened are gone: the listeners read the state again.
    if (listenedOnce) local.deliver(null);
    listenedOnce = true;
  };

  const again = () => {
    if (closed) return;
    retry = setTimeout(() => {
      retry = undefined;
      void listen();
    }, wait);
    wait = Math.min(wait * 2, maxRetryMs);
  };

  return {
    publish: async (payload) => {
      await db.execute(sql`SELECT pg_notify(${channel}, ${payload})`);
    },
    subscribe: local.subscribe,
    listeners: local.listeners,
    ready: () => (firstAttempt ??= listen()),
    close: async () => {
      closed = true;
      clearTimeout(retry);
      const open = client;
      client = undefined;
      await open?.end();
    },
  };
}

import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, FastifyPluginAsync, LightMyRequestResponse } from 'fastify';
import { inject } from 'vitest';
import { createMailer } from '../src/adapters/mailer';
import { buildApp } from '../src/app';
import { loadConfig, type Config, type Env } from '../src/config';
import type { Database, DatabaseHandle } from '../src/db/client';
import type { NotificationsFactory } from '../src/db/notifications';
import type { ErrorLogger, LogDestination } from '../src/logger';
import { createServices, type Services } from '../src/services';
import { TestClock } from './test-clock';
import { openTestDatabase } from './test-database';

export interface TestAppOptions {
  /** Environment variables on top of the test defaults (a temporary DATA_DIR, no web build). */
  env?: Env;
  clock?: TestClock;
  logStream?: LogDestination;
  /** A database opened by the test (one on disk, for backups) instead of a fresh copy; close()
   *  closes it too. */
  database?: DatabaseHandle;
  /** Routes registered after the app's own, before it starts: a test of what the app refuses at
   *  start plants one here. */
  routes?: FastifyPluginAsync;
}

export interface RequestOptions {
  body?: unknown;
  /** Sent as `Authorization: Bearer <token>`. */
  token?: string;
  headers?: Record<string, string>;
}

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  db: Database;
  /** The database's notices between API processes, for a second app on the same database. */
  notifications: NotificationsFactory;
  clock: TestClock;
  /** The services the app runs on, for factories and for waiting on e-mail deliveries. */
  services: Services;
  /** A JSON request through the real HTTP layer (app.inject). */
  request(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    options?: RequestOptions,
  ): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/** The real app over a fresh copy of the migrated test database. */
export async function buildTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'dental-api-test-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    TOKEN_SECRET: randomBytes(32).toString('base64url'),
    LOG_LEVEL: options.logStream === undefined ? 'silent' : 'trace',
    WEB_DIST: path.join(dataDir, 'no-web-build'),
    PUBLIC_URL: 'http://app.test',
    // A public address: the test-mode checkout must be asked for (Stripe tests add their keys).
    PAYMENTS: 'test',
    ...options.env,
  });
  const database = options.database ?? (await openTestDatabase(inject('testDatabase')));
  const mailer = createMailer(config);
  const clock = options.clock ?? new TestClock();
  const logged: ErrorLogger = {
    error: (details, message) => {
      app.log.error(details, message);
    },
    warn: (details, message) => {
      app.log.warn(details, message);
    },
  };
  const services = createServices(
    { config, db: database.db, mailer, notifications: database.notifications },
    clock,
    logged,
  );
  const app = await buildApp({
    config,
    db: database.db,
    mailer,
    clock,
    services,
    databaseOutage: database.outage,
    ...(options.logStream === undefined ? {} : { logStream: options.logStream }),
  });
  const close = async () => {
    await app.close();
    await mailer.close();
    await database.close();
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    if (options.routes !== undefined) await app.register(options.routes);
    await app.ready();
  } catch (error) {
    await close();
    throw error;
  }

  return {
    app,
    config,
    db: database.db,
    notifications: database.notifications,
    clock,
    services,
    request: (method, url, { body, token, headers } = {}) =>
      app.inject({
        method,
        url,
        headers: {
          ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
          ...headers,
        },
        ...(body === undefined ? {} : { payload: body as object }),
      }),
    close,
  };
}

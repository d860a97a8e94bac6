import { fileURLToPath } from 'node:url';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import { migrate as migratePostgres } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { stderrLogger, type ErrorLogger } from '../logger';
import { lockDataDir, restrictTree } from './data-dir';
import { DatabaseOutage } from './database-outage';
import {
  inProcessNotifications,
  postgresNotifications,
  type NotificationsFactory,
} from './notifications';
import { createPglite } from './pglite';
import * as schema from './schema';

export { schema };

/** The one database type every repository takes: the same on PGlite and PostgreSQL. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export type DatabaseTarget =
  /** Embedded PostgreSQL; no dataDir means in memory, loadDataDir starts from a dump. lockDir
   *  (DATA_DIR) is locked for this process while the database is open. */
  | { kind: 'pglite'; dataDir?: string; loadDataDir?: Blob; lockDir?: string }
  | { kind: 'postgres'; url: string };

export interface DatabaseHandle {
  db: Database;
  /** Where the data lives, for the start-up banner (never includes a password). */
  description: string;
  /** Where lost connections are reported; logs an outage once (never on PGlite). */
  outage: DatabaseOutage;
  /** A channel of notices between the API processes on this database (db/notifications.ts). */
  notifications: NotificationsFactory;
  close(): Promise<void>;
}

export const migrationsFolder = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  'migrations',
);

/** Any number of API processes may start at once on one PostgreSQL; only one migrates at a time. */
const migrationLockId = 7_310_142;

/** DATABASE_URL when set, otherwise PGlite in DATA_DIR/pg (DATA_DIR exists after loadConfig). */
export function databaseTarget(config: { databaseUrl: string | undefined; dataDir: string }) {
  return config.databaseUrl === undefined
    ? ({
        kind: 'pglite',
        dataDir: path.join(config.dataDir, 'pg'),
        lockDir: config.dataDir,
      } as const)
    : ({ kind: 'postgres', url: config.databaseUrl } as const);
}

function redactUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.password !== '') parsed.password = '***';
  return parsed.toString();
}

/**
 * A pool that outlives its server's restarts (docs/decisions/database-restarts.md): a connection
 * the server drops is reported instead of crashing the process with an unhandled 'error' event,
 * the query using it fails (503), and the next query connects again.
 */
class ReconnectingPool extends pg.Pool {
  constructor(url: string, outage: DatabaseOutage) {
    super({ connectionString: url });
    const connectedAt = new WeakMap<pg.PoolClient, number>();
    // An idle connection's loss surfaces on the pool; one checked out only on the connection.
    this.on('error', (error, connection) => {
      outage.lost(error, connectedAt.get(connection));
    });
    this.on('connect', (connection) => {
      connectedAt.set(connection, Date.now());
      outage.restored();
      connection.on('error', (error) => {
        outage.lost(error, connectedAt.get(connection));
      });
    });
  }

  override connect(): Promise<pg.PoolClient>;
  override connect(
    callback: (
      err: Error | undefined,
      client: pg.PoolClient | undefined,
      done: (release?: unknown) => void,
    ) => void,
  ): void;
  override connect(
    callback?: (
      err: Error | undefined,
      client: pg.PoolClient | undefined,
      done: (release?: unknown) => void,
    ) => void,
  ): Promise<pg.PoolClient> | undefined {
    // pool.query() asks with a callback and gives back a broken connection itself.
    if (callback !== undefined) {
      super.connect(callback);
      return undefined;
    }
    return super.connect().then(givenBackWhenLost);
  }
}

/**
 * A checked-out connection goes back to the pool (which discards it) as soon as it is lost.
 * drizzle's transaction() releases its connection only once BEGIN has succeeded, so a BEGIN that
 * meets a restart would otherwise hold a pool slot for good; a later release() is then a no-op.
 */
function givenBackWhenLost(connection: pg.PoolClient): pg.PoolClient {
  const release = connection.release.bind(connection);
  let released = false;
  const giveBack = (error?: Error | boolean) => {
    if (released) return;
    released = true;
    connection.off('error', giveBack);
    release(error);
  };
  connection.on('error', giveBack);
  connection.release = giveBack;
  return connection;
}

/**
 * Opens the database and applies every pending migration before anything else uses it; a
 * database outage is told to `log`.
 */
export async function openDatabase(
  target: DatabaseTarget,
  log: ErrorLogger = stderrLogger,
): Promise<DatabaseHandle> {
  const outage = new DatabaseOutage(log);
  if (target.kind === 'pglite') {
    // Two processes on one embedded database lose each other's writes
    // (docs/decisions/data-dir-lock.md).
    const lock = target.lockDir === undefined ? undefined : lockDataDir(target.lockDir);
    let client: PGlite | undefined;
    try {
      client = await createPglite({
        ...(target.dataDir === undefined ? {} : { dataDir: target.dataDir }),
        ...(target.loadDataDir === undefined ? {} : { loadDataDir: target.loadDataDir }),
      });
      const db = drizzlePglite({ client, schema });
      await migratePglite(db, { migrationsFolder });
      const { dataDir } = target;
      if (dataDir !== undefined) restrictTree(dataDir);
      const opened = client;
      return {
        db,
        description: `PGlite in ${dataDir ?? 'memory'}`,
        outage,
        notifications: inProcessNotifications,
        close: async () => {
          await opened.close();
          if (dataDir !== undefined) restrictTree(dataDir);
          lock?.release();
        },
      };
    } catch (error) {
      await client?.close();
      lock?.release();
      throw error;
    }
  }

  const pool = new ReconnectingPool(target.url, outage);
  try {
    const connection = await pool.connect();
    try {
      await connection.query('SELECT pg_advisory_lock($1)', [migrationLockId]);
      try {
        await migratePostgres(drizzlePostgres({ client: connection }), { migrationsFolder });
      } finally {
        await connection.query('SELECT pg_advisory_unlock($1)', [migrationLockId]);
      }
    } finally {
      connection.release();
    }
  } catch (error) {
    await pool.end();
    throw error;
  }
  const db = drizzlePostgres({ client: pool, schema });
  return {
    db,
    description: `PostgreSQL at ${redactUrl(target.url)}`,
    outage,
    notifications: (channel, log) => postgresNotifications(channel, log, { url: target.url, db }),
    close: () => pool.end(),
  };
}

/** The rows of a raw `db.execute(sql…)`: node-postgres and PGlite both answer with `{ rows }`. */
export function rowsOf<Row>(result: unknown): Row[] {
  return (result as { rows: Row[] }).rows;
}

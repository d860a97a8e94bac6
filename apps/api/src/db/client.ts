import { fileURLToPath } from 'node:url';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import { migrate as migratePostgres } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { lockDataDir, restrictTree } from './data-dir';
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

/** Opens the database and applies every pending migration before anything else uses it. */
export async function openDatabase(target: DatabaseTarget): Promise<DatabaseHandle> {
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

  const pool = new pg.Pool({ connectionString: target.url });
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
  return {
    db: drizzlePostgres({ client: pool, schema }),
    description: `PostgreSQL at ${redactUrl(target.url)}`,
    close: () => pool.end(),
  };
}

/** The rows of a raw `db.execute(sql…)`: node-postgres and PGlite both answer with `{ rows }`. */
export function rowsOf<Row>(result: unknown): Row[] {
  return (result as { rows: Row[] }).rows;
}

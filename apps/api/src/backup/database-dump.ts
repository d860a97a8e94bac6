import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { restrictTree } from '../db/data-dir';
import { BackupError } from './manifest';

const run = promisify(execFile);

/** Rows in drizzle's migration journal: how far the schema had come. */
const migrationCountSql = `SELECT count(*)::int AS migrations FROM drizzle.__drizzle_migrations`;

async function migrationCount(db: PGlite | pg.Client): Promise<number> {
  const result =
    db instanceof PGlite
      ? await db.query<{ migrations: number }>(migrationCountSql)
      : await db.query<{ migrations: number }>(migrationCountSql);
  return result.rows[0]?.migrations ?? 0;
}

/**
 * PGlite's own dump of its data folder (a gzipped tarball of the whole cluster). The caller holds
 * the DATA_DIR lock, so no server writes while it is taken.
 */
export async function dumpPglite(pgDir: string, file: string): Promise<number> {
  if (!existsSync(pgDir)) {
    throw new BackupError(`There is no embedded database in ${pgDir} to back up.`);
  }
  const client = await PGlite.create({ dataDir: pgDir });
  try {
    const migrations = await migrationCount(client);
    const dump = await client.dumpDataDir('gzip');
    await writeFile(file, Buffer.from(await dump.arrayBuffer()), { mode: 0o600 });
    return migrations;
  } finally {
    await client.close();
    // PGlite leaves its files world-readable (see restrictTree).
    restrictTree(pgDir);
  }
}

/** Loads a PGlite dump into a folder that must not hold a database yet. */
export async function restorePglite(pgDir: string, file: string): Promise<number> {
  if (existsSync(pgDir) && readdirSync(pgDir).length > 0) {
    throw new BackupError(
      `${pgDir} already holds a database. Restore into an empty DATA_DIR (or move it away first).`,
    );
  }
  const dump = new Blob([await readFile(file)], { type: 'application/x-gzip' });
  const client = await PGlite.create({ dataDir: pgDir, loadDataDir: dump });
  try {
    return await migrationCount(client);
  } finally {
    await client.close();
    restrictTree(pgDir);
  }
}

/** libpq settings for pg_dump and pg_restore: the password in the environment, never in argv
 *  (which every user of the machine can read). */
function libpqTarget(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  return {
    dbname: parsed.toString(),
    env: { ...process.env, ...(password === '' ? {} : { PGPASSWORD: password }) },
  };
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** The major version of a PostgreSQL client tool (`pg_dump (PostgreSQL) 15.20 …` → 15). */
async function toolMajor(tool: string): Promise<number> {
  let stdout: string;
  try {
    ({ stdout } = await run(tool, ['--version']));
  } catch {
    throw new BackupError(
      `${tool} was not found. Install the PostgreSQL client tools of the server's version.`,
    );
  }
  const version = /\(PostgreSQL\) (\d+)/.exec(stdout);
  if (version === null) throw new BackupError(`${tool} --version answered ${stdout.trim()}.`);
  return Number(version[1]);
}

/** pg_dump can dump its own and older servers only. */
async function checkToolVersion(tool: string, client: pg.Client): Promise<void> {
  const { rows } = await client.query<{ server_version_num: string }>('SHOW server_version_num');
  const serverMajor = Math.floor(Number(rows[0]?.server_version_num) / 10_000);
  const major = await toolMajor(tool);
  if (major < serverMajor) {
    throw new BackupError(
      `${tool} is version ${String(major)} but the server runs PostgreSQL ${String(serverMajor)}: ` +
        `install the client tools of version ${String(serverMajor)} or later.`,
    );
  }
}

/** pg_dump's custom format: one consistent snapshot, even while the API keeps writing. */
export async function dumpPostgres(url: string, file: string): Promise<number> {
  const migrations = await withClient(url, async (client) => {
    await checkToolVersion('pg_dump', client);
    return migrationCount(client);
  });
  const { dbname, env } = libpqTarget(url);
  try {
    await run('pg_dump', ['--format=custom', `--file=${file}`, `--dbname=${dbname}`], { env });
  } catch (error) {
    throw new BackupError(`pg_dump failed: ${stderrOf(error)}`);
  }
  return migrations;
}

/**
 * pg_restore into a database that must be empty, in one transaction (a failure leaves it empty).
 * Owners and grants are not restored: the objects belong to the user of DATABASE_URL.
 */
export async function restorePostgres(url: string, file: string): Promise<number> {
  await withClient(url, async (client) => {
    await checkToolVersion('pg_restore', client);
    const { rows } = await client.query<{ objects: number }>(
      `SELECT count(*)::int AS objects FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_%'`,
    );
    if ((rows[0]?.objects ?? 0) > 0) {
      throw new BackupError(
        'The database of DATABASE_URL is not empty. Restore into a new database ' +
          '(createdb <name>) and point DATABASE_URL at it.',
      );
    }
  });
  const { dbname, env } = libpqTarget(url);
  try {
    await run(
      'pg_restore',
      [
        '--exit-on-error',
        '--single-transaction',
        '--no-owner',
        '--no-privileges',
        `--dbname=${dbname}`,
        file,
      ],
      { env },
    );
  } catch (error) {
    throw new BackupError(`pg_restore failed: ${stderrOf(error)}`);
  }
  return withClient(url, migrationCount);
}

function stderrOf(error: unknown): string {
  if (error instanceof Error && 'stderr' in error && typeof error.stderr === 'string') {
    return error.stderr.trim() || error.message;
  }
  return String(error);
}

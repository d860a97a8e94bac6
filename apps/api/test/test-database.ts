import { randomBytes } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { migrationsFolder, openDatabase, type DatabaseHandle } from '../src/db/client';

/** What global setup made, handed to every test file through vitest's provide/inject. */
export type TestDatabaseInfo =
  /** A migrated PGlite data directory as a tarball; each test file loads its own copy. */
  | { kind: 'pglite'; dumpFile: string }
  /** A migrated database on a real server; each test file gets CREATE DATABASE … TEMPLATE it. */
  | { kind: 'postgres'; adminUrl: string; template: string };

export const defaultTestDatabaseUrl = 'postgres://postgres@127.0.0.1:5432/postgres';

const quoteIdentifier = (name: string) => `"${name.replace(/"/g, '""')}"`;

function databaseUrl(adminUrl: string, database: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

async function withAdmin<T>(adminUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function preparePglite(): Promise<{ info: TestDatabaseInfo; teardown: () => Promise<void> }> {
  const client = await PGlite.create();
  try {
    await migrate(drizzle({ client }), { migrationsFolder });
    const dump = await client.dumpDataDir('none');
    const dumpFile = path.join(
      os.tmpdir(),
      `dental-api-test-${randomBytes(6).toString('hex')}.tar`,
    );
    await writeFile(dumpFile, Buffer.from(await dump.arrayBuffer()));
    return { info: { kind: 'pglite', dumpFile }, teardown: () => rm(dumpFile, { force: true }) };
  } finally {
    await client.close();
  }
}

async function preparePostgres(
  adminUrl: string,
): Promise<{ info: TestDatabaseInfo; teardown: () => Promise<void> }> {
  const run = `dental_test_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const template = `${run}_template`;
  try {
    await withAdmin(adminUrl, (client) =>
      client.query(`CREATE DATABASE ${quoteIdentifier(template)}`),
    );
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(
      `The PostgreSQL API tests need a server where they may create databases, and ${adminUrl} ` +
        `failed: ${reason}.\nStart the local server (for example \`pg_ctlcluster 15 main start\`) ` +
        'or set TEST_DATABASE_URL to another server, then run the tests again.',
      { cause: error },
    );
  }
  const teardown = () =>
    withAdmin(adminUrl, async (client) => {
      const { rows } = await client.query<{ datname: string }>(
        'SELECT datname FROM pg_database WHERE datname LIKE $1',
        [`${run}%`],
      );
      for (const { datname } of rows) {
        await client.query(`DROP DATABASE IF EXISTS ${quoteIdentifier(datname)} WITH (FORCE)`);
      }
    });
  try {
    // Migrating through the application's own code path tests it on PostgreSQL too.
    const handle = await openDatabase({ kind: 'postgres', url: databaseUrl(adminUrl, template) });
    await handle.close();
  } catch (error) {
    await teardown();
    throw error;
  }
  return { info: { kind: 'postgres', adminUrl, template }, teardown };
}

/** Global setup: one migrated database per run, chosen by TEST_DB=pglite|postgres. */
export function prepareTestDatabase(env: Record<string, string | undefined>) {
  const kind = env.TEST_DB ?? 'pglite';
  if (kind === 'pglite') return preparePglite();
  if (kind === 'postgres') return preparePostgres(env.TEST_DATABASE_URL ?? defaultTestDatabaseUrl);
  throw new Error(`TEST_DB must be pglite or postgres, not ${JSON.stringify(kind)}.`);
}

/** A fresh database for one test app, copied from the migrated one; close() removes it. */
export async function openTestDatabase(info: TestDatabaseInfo): Promise<DatabaseHandle> {
  if (info.kind === 'pglite') {
    const dump = await readFile(info.dumpFile);
    return openDatabase({
      kind: 'pglite',
      loadDataDir: new Blob([dump], { type: 'application/x-tar' }),
    });
  }
  const name = `${info.template.replace(/_template$/, '')}_${randomBytes(4).toString('hex')}`;
  await withAdmin(info.adminUrl, (client) =>
    client.query(
      `CREATE DATABASE ${quoteIdentifier(name)} TEMPLATE ${quoteIdentifier(info.template)}`,
    ),
  );
  const handle = await openDatabase({ kind: 'postgres', url: databaseUrl(info.adminUrl, name) });
  return {
    ...handle,
    close: async () => {
      await handle.close();
      await withAdmin(info.adminUrl, async (client) => {
        // pool.end() resolves before the server has seen every socket close; dropping at once
        // WITH (FORCE) would kill those sessions and their clients would report it as an error.
        for (let attempt = 0; attempt < 200; attempt++) {
          const { rows } = await client.query<{ sessions: number }>(
            'SELECT count(*)::int AS sessions FROM pg_stat_activity WHERE datname = $1',
            [name],
          );
          if (rows[0]?.sessions === 0) break;
          await new Promise((resolve) => setTimeout(resolve, 25));
        }
        await client.query(`DROP DATABASE IF EXISTS ${quoteIdentifier(name)} WITH (FORCE)`);
      });
    },
  };
}

import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';

const execFileAsync = promisify(execFile);

/**
 * PostgreSQL sizes its buffers for a server of its own (128 MB of shared buffers); inside the API
 * process a few megabytes serve a practice's data, and the WebAssembly memory they take is never
 * given back (docs/decisions/start-and-runtime.md).
 */
export const pgliteStartParams = [
  ...PGlite.defaultStartParams,
  ...['-c', 'shared_buffers=16MB', '-c', 'wal_buffers=1MB', '-c', 'maintenance_work_mem=16MB'],
];

/**
 * Creating a database (initdb) grows PGlite's WebAssembly memory to about 600 MB, which a process
 * never gives back. A short-lived child process does it instead, so the server never holds that.
 */
async function initializeInChildProcess(dataDir: string): Promise<void> {
  const script = `const { PGlite } = require(process.argv[1]);
    PGlite.create({ dataDir: process.argv[2] }).then((db) => db.close());`;
  const pgliteModule = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  try {
    await execFileAsync(process.execPath, ['-e', script, pgliteModule, dataDir]);
  } catch (error) {
    throw new Error(`Creating the database in ${dataDir} failed.`, { cause: error });
  }
}

/** PGlite with small buffers; a new, empty data directory is created in a child process first. */
export async function createPglite(
  options: Pick<PGliteOptions, 'dataDir' | 'loadDataDir'>,
): Promise<PGlite> {
  const { dataDir } = options;
  if (
    dataDir !== undefined &&
    options.loadDataDir === undefined &&
    !existsSync(path.join(dataDir, 'PG_VERSION'))
  ) {
    await initializeInChildProcess(dataDir);
  }
  return PGlite.create({ ...options, startParams: pgliteStartParams });
}

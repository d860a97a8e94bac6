import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PGlite } from '@electric-sql/pglite';
import { createPglite } from './pglite';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'dental-pglite-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function sharedBuffers(db: PGlite): Promise<string | undefined> {
  const { rows } = await db.query<{ shared_buffers: string }>('SHOW shared_buffers');
  return rows[0]?.shared_buffers;
}

/** Creating a database (initdb) takes most of a minute on a busy two-core machine. */
const creationTimeout = 240_000;

describe('createPglite', () => {
  it(
    'creates a new data directory, runs with small buffers and keeps what is written',
    async () => {
      const dataDir = path.join(dir, 'pg');
      const first = await createPglite({ dataDir });
      expect(await sharedBuffers(first)).toBe('16MB');
      await first.exec("CREATE TABLE kept (note text); INSERT INTO kept VALUES ('still here')");
      await first.close();

      const second = await createPglite({ dataDir });
      expect(await sharedBuffers(second)).toBe('16MB');
      const { rows } = await second.query<{ note: string }>('SELECT note FROM kept');
      await second.close();
      expect(rows).toEqual([{ note: 'still here' }]);
    },
    creationTimeout,
  );

  it('fails when the data directory cannot be created', async () => {
    const file = path.join(dir, 'a-file');
    await writeFile(file, 'not a folder');
    await expect(createPglite({ dataDir: path.join(file, 'pg') })).rejects.toThrow();
  });
});

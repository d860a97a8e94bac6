import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { assertValidBlobKey } from '../adapters/blob-store/blob-store';

/** A backup or restore that cannot go on; the message says why and what to do. */
export class BackupError extends Error {
  override name = 'BackupError';
}

export const manifestFileName = 'manifest.json';
/** Blobs are kept under this folder of the backup, each at its key. */
export const blobsFolder = 'blobs';

export const databaseFiles = { pglite: 'database.tar.gz', postgres: 'database.pgdump' } as const;

const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/);

const backupFile = z.object({
  /** '/'-separated, relative to the backup folder. */
  path: z.string(),
  size: z.number().int().nonnegative(),
  sha256: sha256Hex,
});
export type BackupFile = z.infer<typeof backupFile>;

export const manifest = z.object({
  format: z.literal('dental-companion-backup'),
  version: z.literal(1),
  createdAt: z.string(),
  database: z.object({
    kind: z.enum(['pglite', 'postgres']),
    /** Migrations applied when the backup was made; the restored database must have as many. */
    migrations: z.number().int().nonnegative(),
  }),
  /** Every file of the backup but this manifest: the database dump and one file per blob. */
  files: z.array(backupFile),
});
export type Manifest = z.infer<typeof manifest>;

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Hex SHA-256 and size of a file, read as a stream (dumps can be large). */
export async function hashFile(file: string): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(file)) {
    const bytes = chunk as Buffer;
    hash.update(bytes);
    size += bytes.length;
  }
  return { sha256: hash.digest('hex'), size };
}

/** The blob key a backup file holds, or undefined for the database dump. */
export function blobKeyOf(file: BackupFile): string | undefined {
  const prefix = `${blobsFolder}/`;
  return file.path.startsWith(prefix) ? file.path.slice(prefix.length) : undefined;
}

/** Reads the manifest and checks every file it lists against its size and SHA-256. */
export async function readVerifiedManifest(folder: string): Promise<Manifest> {
  let parsed: Manifest;
  try {
    parsed = manifest.parse(
      JSON.parse(await readFile(path.join(folder, manifestFileName), 'utf8')),
    );
  } catch (error) {
    throw new BackupError(
      `${path.join(folder, manifestFileName)} is missing or not a Dental Companion backup manifest ` +
        `(${error instanceof Error ? error.message.split('\n')[0] : String(error)}).`,
    );
  }
  const dump = databaseFiles[parsed.database.kind];
  if (!parsed.files.some((file) => file.path === dump)) {
    throw new BackupError(`The manifest lists no ${dump}: the backup has no database.`);
  }
  for (const file of parsed.files) {
    const key = blobKeyOf(file);
    // Only the dump and blob keys: a path may never leave the backup folder.
    if (key === undefined ? file.path !== dump : !isValidKey(key)) {
      throw new BackupError(`The manifest lists an unexpected file ${JSON.stringify(file.path)}.`);
    }
    let actual;
    try {
      actual = await hashFile(path.join(folder, ...file.path.split('/')));
    } catch {
      throw new BackupError(`${file.path} is missing from the backup.`);
    }
    if (actual.size !== file.size || actual.sha256 !== file.sha256) {
      throw new BackupError(
        `${file.path} does not match its SHA-256 in the manifest: the backup is damaged.`,
      );
    }
  }
  return parsed;
}

function isValidKey(key: string): boolean {
  try {
    assertValidBlobKey(key);
    return true;
  } catch {
    return false;
  }
}

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { createBlobStore } from '../adapters/blob-store/create-blob-store';
import type { BlobStore } from '../adapters/blob-store/blob-store';
import type { Config } from '../config';
import { lockDataDir } from '../db/data-dir';
import { sweptPrefixes } from '../modules/files/file-storage';
import { restorePglite, restorePostgres } from './database-dump';
import {
  BackupError,
  blobKeyOf,
  databaseFiles,
  readVerifiedManifest,
  sha256,
  type Manifest,
} from './manifest';

/** The type each stored key's extension stands for (newBlobKey, thumbnailKeyOf); S3 keeps it as
 *  object metadata, while the API serves files with the type kept in their rows. */
const contentTypes: Record<string, string> = {
  jpg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  pdf: 'application/pdf',
  dcm: 'application/dicom',
};

async function assertNoBlobs(blobs: BlobStore): Promise<void> {
  for (const prefix of sweptPrefixes) {
    for await (const { key } of blobs.list(prefix)) {
      throw new BackupError(
        `The file store already holds files (${key}). Restore into an empty DATA_DIR or bucket.`,
      );
    }
  }
}

/**
 * `npm run restore -- <folder>` (docs/decisions/backup-restore.md): checks every file of the
 * backup against the manifest before anything is written, refuses a database or file store that
 * is not empty, loads the database, then writes each blob and reads it back to check its sum.
 */
export async function restore(config: Config, folder: string): Promise<Manifest> {
  const source = path.resolve(folder);
  const backup = await readVerifiedManifest(source);
  const { kind } = backup.database;
  const targetKind = config.databaseUrl === undefined ? 'pglite' : 'postgres';
  if (kind !== targetKind) {
    throw new BackupError(
      `This is a backup of ${kind === 'pglite' ? 'the embedded database' : 'PostgreSQL'}; ` +
        (kind === 'pglite'
          ? 'restore it with DATABASE_URL unset.'
          : 'restore it with DATABASE_URL set to an empty database.'),
    );
  }
  const lock = config.databaseUrl === undefined ? lockDataDir(config.dataDir) : undefined;
  const blobs = createBlobStore(config);
  try {
    await assertNoBlobs(blobs);
    const dumpFile = path.join(source, databaseFiles[kind]);
    const migrations =
      config.databaseUrl === undefined
        ? await restorePglite(path.join(config.dataDir, 'pg'), dumpFile)
        : await restorePostgres(config.databaseUrl, dumpFile);
    if (migrations !== backup.database.migrations) {
      throw new BackupError(
        `The restored database has ${String(migrations)} migrations where the backup had ` +
          `${String(backup.database.migrations)}.`,
      );
    }
    for (const file of backup.files) {
      const key = blobKeyOf(file);
      if (key === undefined) continue;
      // Hashed again as read: the file may have changed since the manifest was checked.
      const bytes = await readFile(path.join(source, ...file.path.split('/')));
      if (sha256(bytes) !== file.sha256) {
        throw new BackupError(`${file.path} changed while it was being restored.`);
      }
      const extension = key.slice(key.lastIndexOf('.') + 1);
      await blobs.put(key, bytes, contentTypes[extension] ?? 'application/octet-stream');
      const stored = await blobs.get(key);
      if (stored === null || sha256(await buffer(stored.stream)) !== file.sha256) {
        throw new BackupError(`${key} reads back different from the backup after it was written.`);
      }
    }
    return backup;
  } finally {
    blobs.close();
    lock?.release();
  }
}

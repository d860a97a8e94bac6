import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createBlobStore } from '../adapters/blob-store/create-blob-store';
import type { BlobStore } from '../adapters/blob-store/blob-store';
import type { Config } from '../config';
import { lockDataDir } from '../db/data-dir';
import { atomicWriteFile } from '../lib/atomic-write-file';
import { sweptPrefixes } from '../modules/files/file-storage';
import { dumpPglite, dumpPostgres } from './database-dump';
import {
  BackupError,
  blobsFolder,
  databaseFiles,
  hashFile,
  manifestFileName,
  type BackupFile,
  type Manifest,
} from './manifest';

/** A new folder, or an empty one: a backup never mixes with another. */
async function prepareFolder(folder: string): Promise<void> {
  await mkdir(folder, { recursive: true, mode: 0o700 });
  if ((await readdir(folder)).length > 0) {
    throw new BackupError(`${folder} is not empty. Give the backup a new folder.`);
  }
}

/** Copies one blob to `folder/blobs/<key>`, hashing the bytes as they pass. */
async function copyBlob(
  blobs: BlobStore,
  key: string,
  folder: string,
): Promise<BackupFile | undefined> {
  const content = await blobs.get(key);
  // Deleted since it was listed (a member removed the file): nothing to keep.
  if (content === null) return undefined;
  const relative = `${blobsFolder}/${key}`;
  const target = path.join(folder, ...relative.split('/'));
  await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
  const hash = createHash('sha256');
  let size = 0;
  await pipeline(
    content.stream,
    new Transform({
      transform(chunk: Buffer, _encoding, done) {
        hash.update(chunk);
        size += chunk.length;
        done(null, chunk);
      },
    }),
    createWriteStream(target, { flags: 'wx', mode: 0o600 }),
  );
  return { path: relative, size, sha256: hash.digest('hex') };
}

/**
 * `npm run backup -- <folder>` (docs/decisions/backup-restore.md): the database (PGlite's own dump,
 * or pg_dump), then every member file of the blob store, then manifest.json with the size and
 * SHA-256 of each. The manifest is written last, so a folder without one is an unfinished backup.
 */
export async function backup(config: Config, folder: string): Promise<Manifest> {
  const target = path.resolve(folder);
  await prepareFolder(target);
  // The embedded database allows one process: a running server refuses the backup by its lock.
  const lock = config.databaseUrl === undefined ? lockDataDir(config.dataDir) : undefined;
  const blobs = createBlobStore(config);
  try {
    const kind = config.databaseUrl === undefined ? 'pglite' : 'postgres';
    const dumpFile = path.join(target, databaseFiles[kind]);
    const migrations =
      config.databaseUrl === undefined
        ? await dumpPglite(path.join(config.dataDir, 'pg'), dumpFile)
        : await dumpPostgres(config.databaseUrl, dumpFile);
    const files: BackupFile[] = [{ path: databaseFiles[kind], ...(await hashFile(dumpFile)) }];
    for (const prefix of sweptPrefixes) {
      for await (const { key } of blobs.list(prefix)) {
        const copied = await copyBlob(blobs, key, target);
        if (copied !== undefined) files.push(copied);
      }
    }
    const written: Manifest = {
      format: 'dental-companion-backup',
      version: 1,
      createdAt: new Date().toISOString(),
      database: { kind, migrations },
      files,
    };
    await atomicWriteFile(
      path.join(target, manifestFileName),
      `${JSON.stringify(written, null, 2)}\n`,
    );
    return written;
  } finally {
    blobs.close();
    lock?.release();
  }
}

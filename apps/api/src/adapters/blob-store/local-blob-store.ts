import { constants } from 'node:fs';
import { access, lstat, mkdir, open, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { atomicCopyFile, atomicWriteFile, tempFilePrefix } from '#api/lib/atomic-write-file';
import {
  assertValidBlobKey,
  assertValidBlobPrefix,
  type BlobContent,
  type BlobListing,
  type BlobStore,
} from './blob-store';

interface WalkedFile {
  /** Path relative to the root, '/'-separated. */
  relativePath: string;
  name: string;
}

function hasErrorCode(error: unknown, ...codes: string[]): boolean {
  return error instanceof Error && 'code' in error && codes.includes(String(error.code));
}

/** Files under one root folder (by default DATA_DIR/blobs); a key is a relative path. */
export class LocalBlobStore implements BlobStore {
  /** @param root absolute folder that holds every object */
  constructor(private readonly root: string) {}

  // The content type is not kept: local files have no metadata (see BlobStore.put).
  async put(key: string, bytes: Uint8Array, _contentType: string): Promise<void> {
    await atomicWriteFile(this.pathOf(key), bytes);
  }

  async putFile(key: string, filePath: string, _contentType: string): Promise<void> {
    await atomicCopyFile(filePath, this.pathOf(key));
  }

  async get(key: string): Promise<BlobContent | null> {
    let handle;
    try {
      handle = await open(this.pathOf(key), 'r');
    } catch (error) {
      if (hasErrorCode(error, 'ENOENT', 'ENOTDIR', 'EISDIR')) return null;
      throw error;
    }
    try {
      // Size and stream come from the same open file, so a concurrent replace cannot mix them.
      const stats = await handle.stat();
      if (!stats.isFile()) {
        await handle.close();
        return null;
      }
      return { stream: handle.createReadStream(), size: stats.size };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    const filePath = this.pathOf(key);
    // rm on a folder would fail; a key that names a folder has no object to delete.
    if (await this.isFile(filePath)) await rm(filePath, { force: true });
  }

  async exists(key: string): Promise<boolean> {
    return await this.isFile(this.pathOf(key));
  }

  async *list(prefix: string): AsyncIterable<BlobListing> {
    assertValidBlobPrefix(prefix);
    for await (const file of this.walk(prefix)) {
      if (file.name.startsWith(tempFilePrefix) || !file.relativePath.startsWith(prefix)) continue;
      const stats = await this.statFile(file.relativePath);
      if (stats) yield { key: file.relativePath, size: stats.size, modifiedAt: stats.mtime };
    }
  }

  /** Temporary files that a crash left behind mid-write. */
  async removeAbandonedTempFiles(olderThan: Date): Promise<number> {
    let removed = 0;
    for await (const file of this.walk('')) {
      if (!file.name.startsWith(tempFilePrefix)) continue;
      const stats = await this.statFile(file.relativePath);
      if (stats && stats.mtime < olderThan) {
        await rm(path.join(this.root, file.relativePath), { force: true });
        removed += 1;
      }
    }
    return removed;
  }

  /** The root is a folder this process may write (created on a fresh install, as a put would). */
  async ping(): Promise<void> {
    await mkdir(this.root, { recursive: true });
    await access(this.root, constants.R_OK | constants.W_OK | constants.X_OK);
  }

  close(): void {
    // Nothing is held open between calls.
  }

  private pathOf(key: string): string {
    assertValidBlobKey(key);
    return path.join(this.root, ...key.split('/'));
  }

  private async isFile(filePath: string): Promise<boolean> {
    try {
      return (await lstat(filePath)).isFile();
    } catch (error) {
      if (hasErrorCode(error, 'ENOENT', 'ENOTDIR')) return false;
      throw error;
    }
  }

  private async statFile(relativePath: string) {
    try {
      const stats = await stat(path.join(this.root, relativePath));
      return stats.isFile() ? stats : null;
    } catch (error) {
      // Deleted between the folder read and now.
      if (hasErrorCode(error, 'ENOENT')) return null;
      throw error;
    }
  }

  /** Files in the folders that can hold keys with the prefix, depth first. */
  private async *walk(prefix: string, folder = ''): AsyncGenerator<WalkedFile> {
    let entries;
    try {
      entries = await readdir(path.join(this.root, folder), { withFileTypes: true });
    } catch (error) {
      if (hasErrorCode(error, 'ENOENT', 'ENOTDIR')) return;
      throw error;
    }
    for (const entry of entries) {
      const relativePath = folder === '' ? entry.name : `${folder}/${entry.name}`;
      if (entry.isDirectory()) {
        const asFolder = `${relativePath}/`;
        if (asFolder.startsWith(prefix) || prefix.startsWith(asFolder)) {
          yield* this.walk(prefix, relativePath);
        }
      } else if (entry.isFile()) {
        yield { relativePath, name: entry.name };
      }
    }
  }
}

import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, rename, rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';

/** Names of files still being written start with this; readers and listings skip them. */
export const tempFilePrefix = '.tmp-';

/**
 * Writes a file so that a reader sees either the old content or the whole new one, never a part:
 * the bytes go to a temporary file in the same folder, are flushed to disk, then renamed over the
 * target. Parent folders are created. Files are readable by the owner only (health data, PII).
 */
export async function atomicWriteFile(filePath: string, data: Uint8Array | string): Promise<void> {
  await atomicWrite(filePath, (handle) => handle.writeFile(data));
}

/** atomicWriteFile for a file too large to hold in memory: the source is copied as a stream. */
export async function atomicCopyFile(sourcePath: string, filePath: string): Promise<void> {
  await atomicWrite(filePath, async (handle) => {
    for await (const chunk of createReadStream(sourcePath)) await handle.write(chunk as Buffer);
  });
}

async function atomicWrite(
  filePath: string,
  write: (handle: FileHandle) => Promise<void>,
): Promise<void> {
  const folder = path.dirname(filePath);
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const tempPath = path.join(folder, `${tempFilePrefix}${randomUUID()}`);
  try {
    const handle = await open(tempPath, 'wx', 0o600);
    try {
      await write(handle);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tempPath, filePath);
  } catch (error) {
    await rm(tempPath, { force: true });
    throw error;
  }
}

import { mkdtemp, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempFilePrefix } from '#api/lib/atomic-write-file';
import { describeBlobStore } from '#api-test/support/blob-store.behaviour';
import { LocalBlobStore } from './local-blob-store';

async function makeRoot(): Promise<string> {
  return mkdtemp(path.join(tmpdir(), 'dental-blobs-'));
}

describeBlobStore('LocalBlobStore', async () => {
  const root = await makeRoot();
  return {
    store: new LocalBlobStore(root),
    close: () => rm(root, { recursive: true, force: true }),
  };
});

describe('LocalBlobStore on disk', () => {
  let root: string;
  let store: LocalBlobStore;

  beforeEach(async () => {
    root = await makeRoot();
    store = new LocalBlobStore(root);
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('answers a ping on a fresh install (no root yet) and fails one whose root is not a folder', async () => {
    await new LocalBlobStore(path.join(root, 'not-yet')).ping();
    await writeFile(path.join(root, 'a-file'), 'x');
    await expect(new LocalBlobStore(path.join(root, 'a-file')).ping()).rejects.toThrow();
  });

  it('keeps a key as a path under its root, readable by the owner only', async () => {
    await store.put('users/u1/photo.jpg', Buffer.from('jpeg'), 'image/jpeg');
    const file = path.join(root, 'users', 'u1', 'photo.jpg');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readdir(path.join(root, 'users', 'u1'))).toEqual(['photo.jpg']);
  });

  it('leaves no temporary file after writing', async () => {
    await store.put('a/b.bin', Buffer.alloc(1000, 1), 'application/octet-stream');
    await store.put('a/b.bin', Buffer.alloc(10, 2), 'application/octet-stream');
    expect(await readdir(path.join(root, 'a'))).toEqual(['b.bin']);
  });

  it('leaves neither a partial object nor a temporary file when a write fails', async () => {
    // A file where the key needs a folder makes the write fail after the key was accepted.
    await store.put('blocked', Buffer.from('file'), 'text/plain');
    await expect(store.put('blocked/inner.bin', Buffer.from('x'), 'text/plain')).rejects.toThrow();
    expect(await readdir(root)).toEqual(['blocked']);
  });

  it('lets readers see the old or the new object whole while it is replaced, never a mix', async () => {
    const key = 'concurrent/x-ray.png';
    const oldBytes = Buffer.alloc(2_000_000, 0x11);
    const newBytes = Buffer.alloc(3_000_000, 0x22);
    await store.put(key, oldBytes, 'image/png');
    const reads = Array.from({ length: 8 }, async () => {
      const content = await store.get(key);
      if (content === null) throw new Error('object vanished during replace');
      return buffer(content.stream);
    });
    const [, ...seen] = await Promise.all([store.put(key, newBytes, 'image/png'), ...reads]);
    for (const bytes of seen) {
      expect(bytes.equals(oldBytes) || bytes.equals(newBytes)).toBe(true);
    }
  });

  it('does not list temporary files or count a folder as an object', async () => {
    await store.put('u/kept.jpg', Buffer.from('k'), 'image/jpeg');
    await writeFile(path.join(root, 'u', `${tempFilePrefix}crashed`), 'partial');
    const keys: string[] = [];
    for await (const { key } of store.list('')) keys.push(key);
    expect(keys).toEqual(['u/kept.jpg']);
    expect(await store.exists('u')).toBe(false);
    expect(await store.get('u')).toBeNull();
    await store.delete('u');
    expect(await store.exists('u/kept.jpg')).toBe(true);
  });

  it('removes temporary files a crash left behind, but not younger ones', async () => {
    await store.put('u/kept.jpg', Buffer.from('k'), 'image/jpeg');
    const abandoned = path.join(root, 'u', `${tempFilePrefix}abandoned`);
    const inProgress = path.join(root, 'u', `${tempFilePrefix}in-progress`);
    await writeFile(abandoned, 'partial');
    await writeFile(inProgress, 'partial');
    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
    await utimes(abandoned, twoHoursAgo, twoHoursAgo);

    const removed = await store.removeAbandonedTempFiles(new Date(Date.now() - 3600_000));

    expect(removed).toBe(1);
    expect((await readdir(path.join(root, 'u'))).sort()).toEqual(
      [`${tempFilePrefix}in-progress`, 'kept.jpg'].sort(),
    );
  });

  it('lists nothing from a root that does not exist yet', async () => {
    const fresh = new LocalBlobStore(path.join(root, 'not-created'));
    const keys: string[] = [];
    for await (const { key } of fresh.list('')) keys.push(key);
    expect(keys).toEqual([]);
  });
});

import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  InvalidBlobKey,
  type BlobListing,
  type BlobStore,
} from '#api/adapters/blob-store/blob-store';

export interface OpenedBlobStore {
  store: BlobStore;
  close(): Promise<void>;
}

async function readAll(store: BlobStore, key: string): Promise<Buffer | null> {
  const content = await store.get(key);
  if (content === null) return null;
  const bytes = await buffer(content.stream);
  expect(bytes.length).toBe(content.size);
  return bytes;
}

async function collect(listing: AsyncIterable<BlobListing>): Promise<BlobListing[]> {
  const found: BlobListing[] = [];
  for await (const item of listing) found.push(item);
  return found.sort((a, b) => a.key.localeCompare(b.key));
}

/** The behaviour every BlobStore implementation must have; each implementation runs it. */
export function describeBlobStore(name: string, open: () => Promise<OpenedBlobStore>): void {
  describe(`${name} behaves as a BlobStore`, () => {
    let opened: OpenedBlobStore;
    // Every test writes under its own prefix, so tests never see each other's objects.
    const area = () => `t-${randomUUID()}`;

    beforeAll(async () => {
      opened = await open();
    });
    afterAll(async () => {
      await opened.close();
    });

    it('gives back exactly the bytes it was given, with their size', async () => {
      const { store } = opened;
      const key = `${area()}/photo.bin`;
      // Every byte value, then random bytes: nothing may be re-encoded on the way.
      const bytes = Buffer.concat([
        Buffer.from(Array.from({ length: 256 }, (_, i) => i)),
        randomBytes(300_000),
      ]);
      await store.put(key, bytes, 'application/octet-stream');
      const read = await readAll(store, key);
      expect(read?.equals(bytes)).toBe(true);
    });

    it('stores a file from disk as a stream, byte for byte', async () => {
      const { store } = opened;
      const key = `${area()}/export.zip`;
      const folder = await mkdtemp(path.join(os.tmpdir(), 'blob-put-file-'));
      const source = path.join(folder, 'archive.zip');
      // Larger than one read chunk (64 KiB), so that the copy has to loop.
      const bytes = randomBytes(1_000_000);
      await writeFile(source, bytes);
      try {
        await store.putFile(key, source, 'application/zip');
        expect((await readAll(store, key))?.equals(bytes)).toBe(true);
      } finally {
        await rm(folder, { recursive: true, force: true });
      }
    });

    it('answers a ping', async () => {
      await opened.store.ping();
    });

    it('stores an empty object', async () => {
      const { store } = opened;
      const key = `${area()}/empty`;
      await store.put(key, new Uint8Array(0), 'application/octet-stream');
      expect(await readAll(store, key)).toEqual(Buffer.alloc(0));
    });

    it('answers null and false for a key that was never stored', async () => {
      const { store } = opened;
      const key = `${area()}/missing.jpg`;
      expect(await store.get(key)).toBeNull();
      expect(await store.exists(key)).toBe(false);
    });

    it('replaces an object stored again under the same key', async () => {
      const { store } = opened;
      const key = `${area()}/record.pdf`;
      await store.put(key, Buffer.from('first version, longer than the second'), 'text/plain');
      await store.put(key, Buffer.from('second'), 'text/plain');
      expect((await readAll(store, key))?.toString()).toBe('second');
    });

    it('deletes an object, and deleting it again is not an error', async () => {
      const { store } = opened;
      const key = `${area()}/x-ray.png`;
      await store.put(key, Buffer.from('x-ray'), 'image/png');
      expect(await store.exists(key)).toBe(true);
      await store.delete(key);
      expect(await store.exists(key)).toBe(false);
      expect(await store.get(key)).toBeNull();
      await expect(store.delete(key)).resolves.toBeUndefined();
    });

    it('lists the objects under a prefix with their size and modification time', async () => {
      const { store } = opened;
      const root = area();
      const before = Date.now();
      await store.put(`${root}/user-1/a.jpg`, Buffer.from('aa'), 'image/jpeg');
      await store.put(`${root}/user-1/deep/b.pdf`, Buffer.from('bbbb'), 'application/pdf');
      await store.put(`${root}/user-10/c.png`, Buffer.from('c'), 'image/png');
      await store.put(`${root}/user-2/d.png`, Buffer.from('ddd'), 'image/png');
      const after = Date.now();

      const underUser1 = await collect(store.list(`${root}/user-1/`));
      expect(underUser1.map(({ key, size }) => ({ key, size }))).toEqual([
        { key: `${root}/user-1/a.jpg`, size: 2 },
        { key: `${root}/user-1/deep/b.pdf`, size: 4 },
      ]);
      for (const { modifiedAt } of underUser1) {
        // S3 keeps whole seconds; allow for that and for clock granularity.
        expect(modifiedAt.getTime()).toBeGreaterThanOrEqual(before - 2000);
        expect(modifiedAt.getTime()).toBeLessThanOrEqual(after + 2000);
      }

      // A prefix is a string prefix of the key, not only a folder.
      const keys = (await collect(store.list(`${root}/user-1`))).map(({ key }) => key);
      expect(keys).toEqual([
        `${root}/user-1/a.jpg`,
        `${root}/user-1/deep/b.pdf`,
        `${root}/user-10/c.png`,
      ]);
      expect(await collect(store.list(`${root}/nobody/`))).toEqual([]);
    });

    it('lists everything with the empty prefix', async () => {
      const { store } = opened;
      const key = `${area()}/everything.bin`;
      await store.put(key, Buffer.from('e'), 'application/octet-stream');
      const keys = (await collect(store.list(''))).map((item) => item.key);
      expect(keys).toContain(key);
    });

    it.each([
      '',
      '../escape',
      'a/../../escape',
      '/absolute/path',
      'a//b',
      'a/./b',
      'trailing/',
      'back\\slash',
      '.hidden',
      'a/.tmp-partial',
      'space in name',
      'x'.repeat(201),
    ])('refuses the key %j before touching storage', async (key) => {
      const { store } = opened;
      await expect(store.put(key, Buffer.from('no'), 'text/plain')).rejects.toThrow(InvalidBlobKey);
      await expect(store.get(key)).rejects.toThrow(InvalidBlobKey);
      await expect(store.exists(key)).rejects.toThrow(InvalidBlobKey);
      await expect(store.delete(key)).rejects.toThrow(InvalidBlobKey);
    });

    it('refuses a listing prefix that could escape', async () => {
      const { store } = opened;
      await expect(collect(store.list('../'))).rejects.toThrow(InvalidBlobKey);
      await expect(collect(store.list('/'))).rejects.toThrow(InvalidBlobKey);
    });
  });
}

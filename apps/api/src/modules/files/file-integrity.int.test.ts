import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oralPhotoPaths, type OralPhoto } from '@dental/contracts';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories } from '#api-test/factories';
import { dataUrlOf, makePng } from '#api-test/fixtures/upload-test-files';
import { fetchLink, storedKeys } from '#api-test/support/files';
import { storedFileDigests, users } from '#api/db/schema';
import { sweptPrefixes } from './file-storage';
import { fileGoneMessage } from './files.routes';
import { integrityFailureMessage } from './integrity-checked-blob-store';

let t: TestApp;
let factory: ReturnType<typeof factories>;

beforeAll(async () => {
  t = await buildTestApp();
  factory = factories(t);
});
afterAll(() => t.close());

async function memberWithPhoto() {
  const member = await factory.loggedInMember();
  const res = await t.request('POST', oralPhotoPaths.list, {
    token: member.tokens.access,
    body: {
      shoot_date: '2026-01-01',
      photo_type: 'Photo',
      image_link: dataUrlOf(await makePng(), 'image/png'),
    },
  });
  expect(res.statusCode).toBe(201);
  return { member, photo: res.json<OralPhoto>() };
}

const keyOf = (link: string) =>
  decodeURIComponent(new URL(link, 'http://app.test').pathname.replace(/^\/api\/files\//, ''));
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('stored file integrity (SHA-256)', () => {
  it('records the digest of every stored file, original and thumbnail, and drops it with the file', async () => {
    const { member, photo } = await memberWithPhoto();
    const keys = await storedKeys(t, member.id);
    expect(keys).toHaveLength(2);
    const rows = await t.db
      .select()
      .from(storedFileDigests)
      .where(inArray(storedFileDigests.blobKey, keys));
    expect(rows).toHaveLength(2);
    for (const link of [photo.image_link, photo.thumbnail_link]) {
      const served = await fetchLink(t, link);
      expect(served.statusCode).toBe(200);
      const row = rows.find((r) => r.blobKey === keyOf(link));
      expect(row).toMatchObject({
        sha256: sha256(served.rawPayload),
        sizeBytes: served.rawPayload.length,
      });
    }
    await t.request('DELETE', oralPhotoPaths.one(photo.id), { token: member.tokens.access });
    const left = await t.db
      .select()
      .from(storedFileDigests)
      .where(inArray(storedFileDigests.blobKey, keys));
    expect(left).toEqual([]);
  });

  it('answers a problem instead of the bytes of a file changed on disk, and verify-files finds it', async () => {
    const { photo } = await memberWithPhoto();
    const key = keyOf(photo.image_link);
    expect((await t.services.blobs.verifyAll(sweptPrefixes)).mismatched).not.toContain(key);
    await writeFile(path.join(t.config.dataDir, 'blobs', key), 'not the photo');
    const res = await fetchLink(t, photo.image_link);
    expect(res.statusCode).toBe(500);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.json()).toMatchObject({ detail: integrityFailureMessage });
    expect(res.body).not.toContain('not the photo');
    // The thumbnail beside it is intact and still served.
    expect((await fetchLink(t, photo.thumbnail_link)).statusCode).toBe(200);
    const report = await t.services.blobs.verifyAll(sweptPrefixes);
    expect(report.mismatched).toContain(key);
    expect(report.mismatched).not.toContain(keyOf(photo.thumbnail_link));
  });

  it('streams a file too large to read whole and ends it in an error when it was changed', async () => {
    const member = await factory.loggedInMember();
    const key = `users/${member.id}/exports/${randomUUID()}.zip`;
    const source = path.join(t.config.dataDir, 'large-source.bin');
    const bytes = randomBytes(17 * 1024 * 1024);
    await writeFile(source, bytes);
    await t.services.blobs.putFile(key, source, 'application/zip');
    const intact = await t.services.blobs.get(key);
    expect((await buffer(intact?.stream ?? Readable.from([]))).equals(bytes)).toBe(true);

    // One byte changed on disk, the length kept: every byte but the last chunk may pass, then
    // the stream fails instead of ending.
    const changedAt = bytes.length - 10;
    bytes.writeUInt8(bytes.readUInt8(changedAt) ^ 0xff, changedAt);
    await writeFile(path.join(t.config.dataDir, 'blobs', key), bytes);
    const changed = await t.services.blobs.get(key);
    await expect(buffer(changed?.stream ?? Readable.from([]))).rejects.toThrow(
      integrityFailureMessage,
    );
    expect((await t.services.blobs.verifyAll(sweptPrefixes)).mismatched).toContain(key);
  });

  it('reports files stored without a digest and records them when asked', async () => {
    const { photo } = await memberWithPhoto();
    const key = keyOf(photo.thumbnail_link);
    await t.db.delete(storedFileDigests).where(eq(storedFileDigests.blobKey, key));
    expect((await t.services.blobs.verifyAll(sweptPrefixes)).withoutDigest).toContain(key);
    await t.services.blobs.verifyAll(sweptPrefixes, { recordMissing: true });
    expect((await t.services.blobs.verifyAll(sweptPrefixes)).withoutDigest).not.toContain(key);
  });
});

describe('signed file links', () => {
  it('live at most 5 minutes', async () => {
    const { photo } = await memberWithPhoto();
    expect((await fetchLink(t, photo.image_link)).statusCode).toBe(200);
    t.clock.advance(5 * 60 * 1000);
    expect((await fetchLink(t, photo.image_link)).statusCode).toBe(403);
  });

  it('are refused once the owner is deactivated; another member’s still work', async () => {
    const ann = await memberWithPhoto();
    const bob = await memberWithPhoto();
    await t.db
      .update(users)
      .set({ deactivatedAt: t.clock.now() })
      .where(eq(users.id, ann.member.id));
    for (const link of [ann.photo.image_link, ann.photo.thumbnail_link]) {
      const res = await fetchLink(t, link);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ detail: fileGoneMessage });
    }
    expect((await fetchLink(t, bob.photo.image_link)).statusCode).toBe(200);
  });
});

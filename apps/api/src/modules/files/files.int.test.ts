import { utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oralPhotoPaths, type OralPhoto } from '@dental/contracts';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories } from '#api-test/factories';
import { dataUrlOf, makePng } from '#api-test/fixtures/upload-test-files';
import { fileGoneMessage } from './files.routes';
import { fetchLink, storedKeys } from '#api-test/support/files';
import { recordingJobQueue } from '#api-test/support/recording-job-queue';
import { orphanSweepQueue, registerFileJobs } from './files.jobs';

let t: TestApp;
let factory: ReturnType<typeof factories>;

beforeAll(async () => {
  t = await buildTestApp();
  factory = factories(t);
});
afterAll(() => t.close());

const hour = 60 * 60 * 1000;

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

/** The link with one query parameter changed. */
function withParam(link: string, name: string, value: string): string {
  const url = new URL(link, 'http://app.test');
  url.searchParams.set(name, value);
  return `${url.pathname}${url.search}`;
}

describe('GET /api/files/*', () => {
  it('refuses a tampered, a forged and an expired link with 403', async () => {
    const { photo } = await memberWithPhoto();
    expect((await fetchLink(t, photo.image_link)).statusCode).toBe(200);
    for (const link of [
      withParam(photo.image_link, 'type', 'text/html'),
      withParam(photo.image_link, 'disp', 'attachment'),
      withParam(photo.image_link, 'sig', 'A'.repeat(43)),
      photo.image_link.replace(/&sig=[^&]+/, ''),
      // A NUL can be in no stored key; it once reached the audit's database lookup.
      photo.image_link.replace('/api/files/', '/api/files/%00'),
    ]) {
      const res = await fetchLink(t, link);
      expect(res.statusCode, link).toBe(403);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    }
    t.clock.advance(21 * 60 * 1000);
    expect((await fetchLink(t, photo.image_link)).statusCode).toBe(403);
  });

  it('lets no browser or shared cache keep a member’s file', async () => {
    const { photo } = await memberWithPhoto();
    for (const link of [photo.image_link, photo.thumbnail_link]) {
      const res = await fetchLink(t, link);
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });

  it('refuses another member’s file through a link re-pointed at it (403)', async () => {
    const ann = await memberWithPhoto();
    const bob = await memberWithPhoto();
    const annKey = new URL(ann.photo.image_link, 'http://app.test').pathname;
    const bobUrl = new URL(bob.photo.image_link, 'http://app.test');
    const res = await fetchLink(t, `${annKey}${bobUrl.search}`);
    expect(res.statusCode).toBe(403);
  });

  it('answers 404 for a valid link to a file that is gone', async () => {
    const { member, photo } = await memberWithPhoto();
    await t.request('DELETE', oralPhotoPaths.one(photo.id), { token: member.tokens.access });
    const res = await fetchLink(t, photo.thumbnail_link);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ detail: fileGoneMessage });
  });
});

describe('the orphan sweep', () => {
  it('removes old blobs without a row and abandoned temporary files, and nothing else', async () => {
    const { member, photo } = await memberWithPhoto();
    const kept = await storedKeys(t, member.id);
    const orphan = `users/${member.id}/oral-photo/00000000-0000-4000-8000-000000000001.png`;
    await t.services.blobs.put(orphan, new Uint8Array([1, 2, 3]), 'image/png');
    const tempFile = path.join(t.config.dataDir, 'blobs', 'users', member.id, '.tmp-abandoned');
    await writeFile(tempFile, 'half');

    // Younger than the grace period: an upload may still be about to write its row.
    expect(await t.services.orphanSweep.sweep()).toEqual({ removedBlobs: 0, removedTempFiles: 0 });
    expect(await storedKeys(t, member.id)).toContain(orphan);

    t.clock.advance(2 * hour);
    const young = `users/${member.id}/oral-photo/00000000-0000-4000-8000-000000000002.png`;
    await t.services.blobs.put(young, new Uint8Array([4]), 'image/png');
    // The filesystem keeps real time: date the young blob as written "now" on the test clock.
    const youngPath = path.join(t.config.dataDir, 'blobs', ...young.split('/'));
    await utimes(youngPath, t.clock.now(), t.clock.now());

    const result = await t.services.orphanSweep.sweep();
    expect(result.removedBlobs).toBeGreaterThanOrEqual(1);
    expect(result.removedTempFiles).toBeGreaterThanOrEqual(1);
    expect(await storedKeys(t, member.id)).toEqual([...kept, young].sort());
    // The photo still works (through a fresh link: the clock has moved past the old one).
    const fresh = await t.request('GET', oralPhotoPaths.one(photo.id), {
      token: (await factory.login(member)).access,
    });
    expect((await fetchLink(t, fresh.json<OralPhoto>().image_link)).statusCode).toBe(200);
  });

  it('sweeps as a job scheduled every six hours on the queue', async () => {
    const { member } = await memberWithPhoto();
    const orphan = `users/${member.id}/oral-photo/00000000-0000-4000-8000-000000000003.png`;
    await t.services.blobs.put(orphan, new Uint8Array([5]), 'image/png');
    const { queue, registered } = recordingJobQueue();
    await registerFileJobs(queue, t.services.orphanSweep);
    expect(registered).toMatchObject([{ queue: orphanSweepQueue, cron: '0 */6 * * *' }]);

    t.clock.advance(2 * hour);
    await registered[0]?.handler({}, { id: 'job-1', retryCount: 0 });
    expect(await storedKeys(t, member.id)).not.toContain(orphan);
  });
});

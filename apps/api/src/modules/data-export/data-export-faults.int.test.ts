import { randomBytes } from 'node:crypto';
import { watch } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bundle, Media } from '@medplum/fhirtypes';
import {
  dataExport,
  dataExportBundlePath,
  dataExportPaths,
  dataExportStarted,
  type OralPhoto,
} from '@dental/contracts';
import { dataExports, oralPhotos } from '#api/db/schema';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories } from '#api-test/factories';
import { fetchLink } from '#api-test/support/files';
import { withJobQueue } from '#api-test/support/job-queue-app';
import { unzip } from '#api-test/support/zip';
import { dataExportStaleAfterMs } from './data-export.service';

/**
 * 'Download my data' when things go wrong (docs/decisions/data-export.md,
 * docs/decisions/stream-error-paths.md): a stored file that changed, a file stream failing halfway,
 * a worker killed in the middle of a build. The job is run here directly, as its worker would.
 */
let t: TestApp;
let factory: ReturnType<typeof factories>;
const logLines: string[] = [];

type Member = Awaited<ReturnType<ReturnType<typeof factories>['loggedInMember']>>;

beforeAll(async () => {
  t = await buildTestApp({ logStream: { write: (line) => logLines.push(line) } });
  factory = factories(t);
});

afterAll(() => t.close());

const buildDir = () => path.join(t.config.dataDir, 'exports-in-progress');
const onDisk = (key: string) => path.join(t.config.dataDir, 'blobs', key);

async function blobKeyOf(photo: OralPhoto): Promise<string> {
  const [row] = await t.db.select().from(oralPhotos).where(eq(oralPhotos.id, photo.id));
  if (row === undefined) throw new Error('The photo has no row');
  return row.blobKey;
}

async function requestExport(member: Member): Promise<string> {
  const res = await t.request('POST', dataExportPaths.root, { token: member.tokens.access });
  expect(res.statusCode, res.body).toBe(202);
  return dataExportStarted.parse(res.json()).id;
}

async function exportRow(id: string) {
  const [row] = await t.db.select().from(dataExports).where(eq(dataExports.id, id));
  return row;
}

/** The process still answers. */
async function stillAnswers(member: Member) {
  const res = await t.request('GET', dataExportPaths.root, { token: member.tokens.access });
  expect(res.statusCode).toBe(200);
}

describe('a stored file that fails its integrity check', () => {
  it('is left out of the archive and named as damaged in its index; the log and the metrics tell the operator', async () => {
    const member = await factory.loggedInMember();
    const [rotten, sound] = [await factory.oralPhoto(member), await factory.oralPhoto(member)];
    const rottenKey = await blobKeyOf(rotten);
    await writeFile(onDisk(rottenKey), 'bit rot');
    const id = await requestExport(member);

    await t.services.dataExports.run(id);

    const res = await t.request('GET', dataExportPaths.one(id), { token: member.tokens.access });
    const answer = dataExport.parse(res.json());
    expect(answer.status).toBe('done');
    const archive = await unzip((await fetchLink(t, answer.download_url ?? '')).rawPayload);
    const paths = [...archive.keys()];
    expect(paths.some((name) => name.includes(sound.id))).toBe(true);
    expect(paths.some((name) => name.includes(rotten.id))).toBe(false);
    const index = archive.get('index.html')?.toString('utf8') ?? '';
    expect(index).toContain('Damaged files');
    expect(index).toMatch(new RegExp(`files/x-rays/[^"<]*${rotten.id}[^<]*\\)`));
    expect(index).toContain('damaged: left out of this archive');
    // Every link of the index still opens a file of the archive.
    for (const [, target] of index.matchAll(/(?:href|src)="([^"]+)"/g)) {
      expect(archive.has(decodeURI(target ?? ''))).toBe(true);
    }
    const bundle = JSON.parse(
      archive.get(dataExportBundlePath)?.toString('utf8') ?? '{}',
    ) as Bundle;
    const media = (photoId: string) =>
      bundle.entry?.find((entry) => entry.resource?.id === photoId)?.resource as Media;
    expect(media(rotten.id).content.url).toBeUndefined();
    // The sound file is in the Bundle as a Binary; the damaged one has none.
    const soundUrl = media(sound.id).content.url ?? '';
    expect(soundUrl).toMatch(/^urn:uuid:/);
    expect(bundle.entry?.find((entry) => entry.fullUrl === soundUrl)?.resource).toMatchObject({
      resourceType: 'Binary',
    });
    expect(bundle.entry?.filter((entry) => entry.resource?.resourceType === 'Binary')).toHaveLength(
      1,
    );

    const logged = logLines.map((line) => JSON.parse(line) as { msg?: string; blobKey?: string });
    expect(logged).toContainEqual(
      expect.objectContaining({
        msg: 'a data export left out a stored file that failed its integrity check',
        blobKey: rottenKey,
      }),
    );
    const { body } = await t.services.metrics.exposition();
    expect(body).toMatch(/^dental_file_integrity_failures_total 1$/m);
    await stillAnswers(member);
  });

  it('failing halfway through a large file ends the attempt with an error, leaves nothing behind and queues the retry', async () => {
    const member = await factory.loggedInMember();
    // Larger than the store reads whole: checked while it streams, so it fails after its first
    // bytes are already in the zip.
    const key = `users/${member.id}/oral-photo/large-x-ray.png`;
    const source = path.join(t.config.dataDir, 'large-x-ray.png');
    const bytes = randomBytes(17 * 1024 * 1024);
    await writeFile(source, bytes);
    await t.services.blobs.putFile(key, source, 'image/png');
    bytes[bytes.length - 1] = (bytes.at(-1) ?? 0) ^ 0xff;
    await writeFile(onDisk(key), bytes);
    await t.db.insert(oralPhotos).values({
      userId: member.id,
      shootDate: '2025-06-02',
      photoType: 'X-ray',
      blobKey: key,
      contentType: 'image/png',
      sizeBytes: bytes.length,
      thumbnailKey: `${key}.thumb.webp`,
      thumbnailSizeBytes: 0,
    });
    const id = await requestExport(member);

    await expect(t.services.dataExports.run(id)).rejects.toThrow(/integrity check/);

    expect(await exportRow(id)).toMatchObject({ status: 'queued', attempts: 1, blobKey: null });
    expect(await readdir(buildDir())).not.toContain(id);
    await stillAnswers(member);
  });
});

describe('a finished archive that changed on disk', () => {
  it('is sent without its end through its link, and the server goes on', async () => {
    const member = await factory.loggedInMember();
    const key = `users/${member.id}/exports/changed.zip`;
    const source = path.join(t.config.dataDir, 'archive.zip');
    const bytes = randomBytes(17 * 1024 * 1024);
    await writeFile(source, bytes);
    await t.services.blobs.putFile(key, source, 'application/zip');
    bytes[0] = (bytes[0] ?? 0) ^ 0xff;
    await writeFile(onDisk(key), bytes);
    const link = t.services.links.sign(
      { key, contentType: 'application/zip', disposition: 'attachment', fileName: 'record.zip' },
      new Date(t.clock.now().getTime() + 60_000),
    );

    // Fastify ends the answer when the checked stream fails: a client never has it whole.
    const received = await fetchLink(t, link).then(
      (res) => res.rawPayload.length,
      () => 0,
    );
    expect(received).toBeLessThan(bytes.length);
    await stillAnswers(member);
  });
});

describe('an export whose worker died', () => {
  it('is built inside DATA_DIR, in a folder of its own that is gone once it is stored', async () => {
    const member = await factory.loggedInMember();
    await factory.oralPhoto(member);
    const id = await requestExport(member);
    await mkdir(buildDir(), { recursive: true });
    const created: string[] = [];
    const watcher = watch(buildDir(), (_event, name) => {
      if (name !== null) created.push(name);
    });
    try {
      await t.services.dataExports.run(id);
      await new Promise((resolve) => setTimeout(resolve, 200));
    } finally {
      watcher.close();
    }
    expect(created).toContain(id);
    expect(await readdir(buildDir())).not.toContain(id);
    expect(await exportRow(id)).toMatchObject({ status: 'done', attempts: 1 });
  });

  it('is queued again and its partial archive removed once its heartbeat is a minute old; a live build is left alone', async () => {
    // Within the minute or two the recovery promises after a kill.
    expect(dataExportStaleAfterMs).toBeLessThanOrEqual(60_000);
    const [member, other] = [await factory.loggedInMember(), await factory.loggedInMember()];
    await factory.oralPhoto(member);
    const now = t.clock.now().getTime();
    const [killed, live] = await t.db
      .insert(dataExports)
      .values([
        {
          userId: member.id,
          status: 'running',
          heartbeatAt: new Date(now - dataExportStaleAfterMs - 1000),
          attempts: 1,
        },
        { userId: other.id, status: 'running', heartbeatAt: new Date(now - 5_000), attempts: 1 },
      ])
      .returning();
    if (killed === undefined || live === undefined) throw new Error('No rows inserted');
    for (const folder of [killed.id, live.id, 'not-an-export']) {
      await mkdir(path.join(buildDir(), folder), { recursive: true });
      await writeFile(path.join(buildDir(), folder, 'archive.zip'), 'PK partial X-rays');
    }
    // Before the recovery the member cannot ask again: the killed build answers.
    expect(await requestExport(member)).toBe(killed.id);

    await t.services.dataExports.recoverAbandoned();

    expect(await exportRow(killed.id)).toMatchObject({ status: 'queued' });
    expect(await exportRow(live.id)).toMatchObject({ status: 'running' });
    const left = await readdir(buildDir());
    expect(left).toContain(live.id);
    expect(left).not.toContain(killed.id);
    expect(left).not.toContain('not-an-export');
    expect(await readFile(path.join(buildDir(), live.id, 'archive.zip'), 'utf8')).toContain('PK');

    await t.services.dataExports.run(killed.id);
    expect(await exportRow(killed.id)).toMatchObject({ status: 'done', attempts: 2 });
    // A second worker's job for the live build does not take it over.
    await t.services.dataExports.run(live.id);
    expect(await exportRow(live.id)).toMatchObject({ status: 'running', attempts: 1 });
  });

  it('is built again by the job queue when the app restarts, without the member asking again', async () => {
    const member = await factory.loggedInMember();
    await factory.oralPhoto(member);
    const [killed] = await t.db
      .insert(dataExports)
      .values({
        userId: member.id,
        status: 'running',
        heartbeatAt: new Date(t.clock.now().getTime() - dataExportStaleAfterMs - 1000),
        attempts: 1,
      })
      .returning();
    if (killed === undefined) throw new Error('No row inserted');

    // The app as server.ts starts it: its job queue, its workers, the start-up recovery.
    const restarted = await withJobQueue(t);
    try {
      await expect
        .poll(async () => (await exportRow(killed.id))?.status, { timeout: 20_000, interval: 250 })
        .toBe('done');
    } finally {
      await restarted.close();
    }
  });

  it('is marked failed once it was started three times', async () => {
    const member = await factory.loggedInMember();
    const [row] = await t.db
      .insert(dataExports)
      .values({ userId: member.id, status: 'running', heartbeatAt: null, attempts: 3 })
      .returning();
    if (row === undefined) throw new Error('No row inserted');

    await t.services.dataExports.recoverAbandoned();
    await t.services.dataExports.run(row.id);

    expect(await exportRow(row.id)).toMatchObject({ status: 'failed', attempts: 4 });
    expect(await requestExport(member)).not.toBe(row.id);
  });
});

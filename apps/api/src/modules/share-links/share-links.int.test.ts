import { createHash, randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  dentalAiPaths,
  medicalRecordPaths,
  oralPhotoPaths,
  problemContentType,
  problemTypes,
  report,
  reportPaths,
  reportStarted,
  shareItemNotFoundMessage,
  shareLinkList,
  shareLinkNotFoundMessage,
  shareLinkPaths,
  sharePasscodeHeader,
  sharePasscodeRequiredMessage,
  sharePasscodeWrongMessage,
  sharedItems,
  type DentalAiResult,
  type MedicalRecord,
  type OralPhoto,
  type ShareLinkCreated,
} from '@dental/contracts';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories } from '#api-test/factories';
import { addDentalAiResult, fetchLink } from '#api-test/support/files';
import { dataUrlOf, makePdf, makePng } from '#api-test/fixtures/upload-test-files';
import {
  auditEvents,
  reports,
  shareLinkPhotos,
  shareLinkReports,
  shareLinks,
} from '#api/db/schema';

let t: TestApp;
let factory: ReturnType<typeof factories>;
let png: string;
let pdf: string;

beforeAll(async () => {
  t = await buildTestApp();
  factory = factories(t);
  png = dataUrlOf(await makePng(), 'image/png');
  pdf = dataUrlOf(makePdf(), 'application/pdf');
});
afterAll(() => t.close());

type Member = Awaited<ReturnType<typeof factory.loggedInMember>>;

const hourMs = 60 * 60 * 1000;
const as = (member: Member) => ({ token: member.tokens.access });

async function addPhoto(member: Member): Promise<OralPhoto> {
  const res = await t.request('POST', oralPhotoPaths.list, {
    ...as(member),
    body: { shoot_date: '2026-03-01', photo_type: 'X-ray', note: 'Lower left', image_link: png },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<OralPhoto>();
}

async function addRecord(member: Member): Promise<MedicalRecord> {
  const res = await t.request('POST', medicalRecordPaths.list, {
    ...as(member),
    body: {
      title: 'Root canal letter',
      record_date: '2026-04-02',
      note: 'From Dr. Lee',
      medical_files: [{ file_name: 'letter.pdf', file_link: pdf }],
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<MedicalRecord>();
}

function share(member: Member, body: Record<string, unknown>) {
  return t.request('POST', shareLinkPaths.list, {
    ...as(member),
    body: { expires_in_hours: 24, label: 'For Dr. Patel', ...body },
  });
}

async function shareOk(member: Member, body: Record<string, unknown>): Promise<ShareLinkCreated> {
  const res = await share(member, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<ShareLinkCreated>();
}

/** The recipient: no bearer token, only the token in the URL and maybe a passcode. */
function open(token: string, passcode?: string) {
  return t.request('GET', shareLinkPaths.shared(token), {
    headers: {
      'user-agent': 'Dentist browser',
      ...(passcode === undefined ? {} : { [sharePasscodeHeader]: passcode }),
    },
  });
}

async function linksOf(member: Member) {
  const res = await t.request('GET', shareLinkPaths.list, as(member));
  expect(res.statusCode, res.body).toBe(200);
  return shareLinkList.parse(res.json());
}

async function newestRowOf(memberId: string) {
  const [row] = await t.db
    .select()
    .from(auditEvents)
    .where(eq(auditEvents.memberId, memberId))
    .orderBy(sql`${auditEvents.seq} desc`)
    .limit(1);
  return row;
}

describe('share link lifecycle', () => {
  it('shares photos and records as the owner sees them, counts openings, and stops on revoke', async () => {
    const owner = await factory.loggedInMember();
    const photo = await addPhoto(owner);
    const record = await addRecord(owner);
    const created = await shareOk(owner, { photos: [photo.id], records: [record.id] });

    expect(created.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(created.url).toBe(`http://app.test/s/${created.token}`);
    expect(created.expires_at).toBe(new Date(t.clock.now().getTime() + 24 * hourMs).toISOString());
    // Only the token's hash is stored.
    const [stored] = await t.db.select().from(shareLinks).where(eq(shareLinks.id, created.id));
    expect(stored?.tokenHash).toBe(createHash('sha256').update(created.token).digest('hex'));
    expect(JSON.stringify(stored)).not.toContain(created.token);

    expect(await linksOf(owner)).toEqual([
      {
        id: created.id,
        label: 'For Dr. Patel',
        created_at: t.clock.now().toISOString(),
        expires_at: created.expires_at,
        revoked_at: null,
        state: 'active',
        has_passcode: false,
        photo_count: 1,
        record_count: 1,
        dental_ai_count: 0,
        report_count: 0,
        views: 0,
        last_viewed_at: null,
      },
    ]);

    const res = await open(created.token);
    expect(res.statusCode, res.body).toBe(200);
    const shared = sharedItems.parse(res.json());
    const ownPhoto = (
      await t.request('GET', oralPhotoPaths.one(photo.id), as(owner))
    ).json<OralPhoto>();
    const ownRecord = (
      await t.request('GET', medicalRecordPaths.one(record.id), as(owner))
    ).json<MedicalRecord>();
    // The same answers, but the recipient's file links name the share, not the owner
    // (docs/decisions/share-file-links.md).
    const sharedFileLink = expect.stringMatching(/^\/api\/shared-files\//) as unknown as string;
    expect(shared).toEqual({
      label: 'For Dr. Patel',
      expires_at: created.expires_at,
      dental_ai: [],
      reports: [],
      photos: [{ ...ownPhoto, image_link: sharedFileLink, thumbnail_link: sharedFileLink }],
      records: [
        {
          ...ownRecord,
          medical_files: ownRecord.medical_files.map((file) => ({
            ...file,
            file_link: sharedFileLink,
          })),
        },
      ],
    });
    expect((await fetchLink(t, shared.photos[0]?.image_link ?? '')).statusCode).toBe(200);
    const file = await fetchLink(t, shared.records[0]?.medical_files[0]?.file_link ?? '');
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');

    t.clock.advance(60_000);
    expect((await open(created.token)).statusCode).toBe(200);
    const [listed] = await linksOf(owner);
    expect(listed).toMatchObject({ views: 2, last_viewed_at: t.clock.now().toISOString() });

    const revoked = await t.request('DELETE', shareLinkPaths.one(created.id), as(owner));
    expect(revoked.statusCode, revoked.body).toBe(204);
    const gone = await open(created.token);
    expect(gone.statusCode).toBe(404);
    expect(gone.headers['content-type']).toContain(problemContentType);
    expect(gone.json()).toMatchObject({ detail: shareLinkNotFoundMessage });
    expect(await linksOf(owner)).toMatchObject([
      { state: 'revoked', revoked_at: t.clock.now().toISOString(), views: 2 },
    ]);
  });

  it('answers 404 once the link has expired, by the clock', async () => {
    const owner = await factory.loggedInMember();
    const photo = await addPhoto(owner);
    const created = await shareOk(owner, { photos: [photo.id], expires_in_hours: 1 });
    t.clock.advance(hourMs - 1);
    expect((await open(created.token)).statusCode).toBe(200);
    t.clock.advance(1);
    expect((await open(created.token)).statusCode).toBe(404);
    // The owner's session ended while idle; a new sign-in reads the list.
    const again = { ...owner, tokens: await factory.login(owner) };
    expect(await linksOf(again)).toMatchObject([{ state: 'expired', views: 1 }]);
  });

  it('answers 404 for a token that was never made, the same as a revoked one', async () => {
    const res = await open('A'.repeat(43));
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ detail: shareLinkNotFoundMessage });
  });

  it('no longer shows a photo the owner deleted', async () => {
    const owner = await factory.loggedInMember();
    const [kept, deleted] = [await addPhoto(owner), await addPhoto(owner)];
    const created = await shareOk(owner, { photos: [kept.id, deleted.id] });
    expect((await t.request('DELETE', oralPhotoPaths.one(deleted.id), as(owner))).statusCode).toBe(
      204,
    );
    const shared = sharedItems.parse((await open(created.token)).json());
    expect(shared.photos.map((photo) => photo.id)).toEqual([kept.id]);
    expect(await linksOf(owner)).toMatchObject([{ photo_count: 1 }]);
  });

  it('counts every one of many concurrent openings', async () => {
    const owner = await factory.loggedInMember();
    const created = await shareOk(owner, { photos: [(await addPhoto(owner)).id] });
    const answers = await Promise.all(Array.from({ length: 8 }, () => open(created.token)));
    expect(answers.map((res) => res.statusCode)).toEqual(Array(8).fill(200));
    expect(await linksOf(owner)).toMatchObject([{ views: 8 }]);
  });
});

describe('Dental AI results', () => {
  it('shares the member’s result with its image through the share’s file links, until revoked', async () => {
    const owner = await factory.loggedInMember();
    const result = await addDentalAiResult(t, owner);
    const created = await shareOk(owner, { dental_ai: [result.id] });
    expect(await newestRowOf(owner.id)).toMatchObject({
      actor: owner.id,
      action: 'create',
      resourceType: 'share_link',
      resourceId: created.id,
    });
    expect(await linksOf(owner)).toMatchObject([
      { photo_count: 0, record_count: 0, dental_ai_count: 1 },
    ]);

    const own = (
      await t.request('GET', dentalAiPaths.result(result.id), as(owner))
    ).json<DentalAiResult>();
    const res = await open(created.token);
    expect(res.statusCode, res.body).toBe(200);
    const shared = sharedItems.parse(res.json());
    // The same answer as the owner's, boxes and all; only the image link names the share.
    const linkOfShare = expect.stringMatching(
      `^/api/shared-files/${created.id}/`,
    ) as unknown as string;
    expect(shared.dental_ai).toEqual([{ ...own, image_url: linkOfShare }]);
    expect(shared.dental_ai[0]?.image_url).not.toContain(owner.id);
    // Opening it is written to the owner's chain like any opening of the share.
    expect(await newestRowOf(owner.id)).toMatchObject({
      actor: `share_link:${created.id}`,
      action: 'read',
      resourceType: 'share_link',
      resourceId: created.id,
      result: 'success',
    });
    const image = await fetchLink(t, shared.dental_ai[0]?.image_url ?? '');
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    // And so is each file the recipient fetches.
    expect(await newestRowOf(owner.id)).toMatchObject({
      actor: `share_link:${created.id}`,
      action: 'download',
      resourceType: 'dental_ai_result',
      resourceId: result.id,
      result: 'success',
    });

    const revoked = await t.request('DELETE', shareLinkPaths.one(created.id), as(owner));
    expect(revoked.statusCode, revoked.body).toBe(204);
    expect((await open(created.token)).statusCode).toBe(404);
    const imageGone = await fetchLink(t, shared.dental_ai[0]?.image_url ?? '');
    expect(imageGone.statusCode).toBe(404);
  });

  it('refuses another member’s result with a 404 and makes no link', async () => {
    const owner = await factory.loggedInMember();
    const other = await factory.loggedInMember();
    const own = await addDentalAiResult(t, owner);
    const theirs = await addDentalAiResult(t, other);
    const res = await share(owner, { dental_ai: [own.id, theirs.id] });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toContain(problemContentType);
    expect(res.json()).toMatchObject({ detail: shareItemNotFoundMessage });
    expect(await linksOf(owner)).toEqual([]);
  });

  it('no longer shows a result the owner deleted', async () => {
    const owner = await factory.loggedInMember();
    const result = await addDentalAiResult(t, owner);
    const created = await shareOk(owner, { dental_ai: [result.id] });
    const deleted = await t.request('DELETE', dentalAiPaths.result(result.id), as(owner));
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(sharedItems.parse((await open(created.token)).json()).dental_ai).toEqual([]);
  });
});

/** A report of the member's, asked for through the API and, unless `run` is false, generated
 *  as the queue's worker does. */
async function addReport(member: Member, run = true) {
  const res = await t.request('POST', reportPaths.root, {
    ...as(member),
    body: { kind: 'treatment_history' },
  });
  expect(res.statusCode, res.body).toBe(202);
  const { id } = reportStarted.parse(res.json());
  if (run) await t.services.reports.run(id);
  const own = await t.request('GET', reportPaths.one(id), as(member));
  return report.parse(own.json());
}

describe('reports', () => {
  it('shares a finished report whose PDF the recipient downloads through the share, audited, until revoked', async () => {
    const owner = await factory.loggedInMember();
    const own = await addReport(owner);
    expect(own.status).toBe('done');
    const created = await shareOk(owner, { reports: [own.id] });
    expect(await linksOf(owner)).toMatchObject([
      { photo_count: 0, record_count: 0, dental_ai_count: 0, report_count: 1 },
    ]);

    const res = await open(created.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).not.toContain(owner.id);
    const shared = sharedItems.parse(res.json());
    expect(shared.reports).toEqual([
      {
        id: own.id,
        kind: 'treatment_history',
        from: own.from,
        to: own.to,
        download_url: expect.stringMatching(`^/api/shared-files/${created.id}/`) as unknown,
      },
    ]);
    const download = await fetchLink(t, shared.reports[0]?.download_url ?? '');
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.headers['content-disposition']).toContain('attachment');
    expect(download.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    // The download joins the owner's chain with the link as its actor.
    const downloadRow = {
      actor: `share_link:${created.id}`,
      action: 'download',
      resourceType: 'report',
      resourceId: own.id,
    };
    expect(await newestRowOf(owner.id)).toMatchObject({ ...downloadRow, result: 'success' });
    // The recipient's download is not the member's: Home still says the report is ready.
    const [row] = await t.db.select().from(reports).where(eq(reports.id, own.id));
    expect(row?.downloadedAt).toBeNull();

    const revoked = await t.request('DELETE', shareLinkPaths.one(created.id), as(owner));
    expect(revoked.statusCode, revoked.body).toBe(204);
    expect((await open(created.token)).statusCode).toBe(404);
    const gone = await fetchLink(t, shared.reports[0]?.download_url ?? '');
    expect(gone.statusCode).toBe(404);
    expect(await newestRowOf(owner.id)).toMatchObject({ ...downloadRow, result: 'failure' });
  });

  it('stops the download once the link has expired', async () => {
    const owner = await factory.loggedInMember();
    const own = await addReport(owner);
    const created = await shareOk(owner, { reports: [own.id], expires_in_hours: 1 });
    // Opened a minute before the link ends: its file link would work for a few minutes more.
    t.clock.advance(hourMs - 60_000);
    const shared = sharedItems.parse((await open(created.token)).json());
    t.clock.advance(60_000);
    expect((await open(created.token)).statusCode).toBe(404);
    expect((await fetchLink(t, shared.reports[0]?.download_url ?? '')).statusCode).toBe(404);
  });

  it('refuses another member’s report, and one not done, with a 404, and makes no link', async () => {
    const owner = await factory.loggedInMember();
    const other = await factory.loggedInMember();
    const done = await addReport(owner);
    const theirs = await addReport(other);
    const queued = await addReport(owner, false);
    const failed = await addReport(owner, false);
    await t.db.update(reports).set({ status: 'failed' }).where(eq(reports.id, failed.id));
    const deleted = await addReport(owner);
    const removed = await t.request('DELETE', reportPaths.one(deleted.id), as(owner));
    expect(removed.statusCode, removed.body).toBe(204);
    for (const refused of [theirs, queued, failed, deleted]) {
      const res = await share(owner, { reports: [done.id, refused.id] });
      expect(res.statusCode, refused.status).toBe(404);
      expect(res.headers['content-type']).toContain(problemContentType);
      expect(res.json()).toMatchObject({ detail: shareItemNotFoundMessage });
    }
    expect(await linksOf(owner)).toEqual([]);
    expect(
      await t.db.select().from(shareLinkReports).where(eq(shareLinkReports.reportId, done.id)),
    ).toEqual([]);
  });

  it('no longer shows or counts a report the owner deleted', async () => {
    const owner = await factory.loggedInMember();
    const own = await addReport(owner);
    const created = await shareOk(owner, { reports: [own.id] });
    const shared = sharedItems.parse((await open(created.token)).json());
    const deleted = await t.request('DELETE', reportPaths.one(own.id), as(owner));
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(sharedItems.parse((await open(created.token)).json()).reports).toEqual([]);
    expect(await linksOf(owner)).toMatchObject([{ report_count: 0 }]);
    expect((await fetchLink(t, shared.reports[0]?.download_url ?? '')).statusCode).toBe(404);
  });
});

describe('passcode', () => {
  it('asks for it, refuses a wrong one, and opens with the right one', async () => {
    const owner = await factory.loggedInMember();
    const created = await shareOk(owner, {
      photos: [(await addPhoto(owner)).id],
      passcode: 'molar-42',
    });
    const [stored] = await t.db.select().from(shareLinks).where(eq(shareLinks.id, created.id));
    expect(stored?.passcodeHash).toMatch(/^\$argon2id\$/);

    const missing = await open(created.token);
    expect(missing.statusCode).toBe(401);
    expect(missing.json()).toMatchObject({
      type: problemTypes.sharePasscode,
      detail: sharePasscodeRequiredMessage,
    });
    expect(Object.keys(missing.json())).not.toContain('photos');
    const wrong = await open(created.token, 'molar-43');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({
      type: problemTypes.sharePasscode,
      detail: sharePasscodeWrongMessage,
    });
    const right = await open(created.token, 'molar-42');
    expect(right.statusCode, right.body).toBe(200);
    expect(sharedItems.parse(right.json()).photos).toHaveLength(1);
    // Only the opening that showed something counts.
    expect(await linksOf(owner)).toMatchObject([{ views: 1, has_passcode: true }]);
  });

  it('locks the link after repeated wrong passcodes, even for the right one', async () => {
    const owner = await factory.loggedInMember();
    const created = await shareOk(owner, {
      photos: [(await addPhoto(owner)).id],
      passcode: 'molar-42',
    });
    for (let attempt = 0; attempt < 4; attempt++) {
      expect((await open(created.token, `wrong-${attempt}`)).statusCode).toBe(401);
    }
    // The fifth wrong one locks the link.
    expect((await open(created.token, 'wrong-5')).statusCode).toBe(401);
    const locked = await open(created.token, 'molar-42');
    expect(locked.statusCode).toBe(429);
    expect(locked.headers['retry-after']).toBeDefined();
    t.clock.advance(61_000);
    expect((await open(created.token, 'molar-42')).statusCode).toBe(200);
  });

  it('checks at most 5 of 100 concurrent wrong passcodes from 100 addresses, then refuses the right one', async () => {
    // A longer timeout: a hundred requests through PGlite's one connection take a while.
    const owner = await factory.loggedInMember();
    const created = await shareOk(owner, {
      photos: [(await addPhoto(owner)).id],
      passcode: 'molar-42',
    });
    const fromAddress = (passcode: string, index: number) =>
      t.app.inject({
        method: 'GET',
        url: shareLinkPaths.shared(created.token),
        headers: { 'user-agent': 'Dentist browser', [sharePasscodeHeader]: passcode },
        remoteAddress: `198.51.100.${index}`,
      });
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, index) => fromAddress(`wrong-${index}`, index)),
    );
    const statuses = answers.map((res) => res.statusCode);
    expect(statuses.filter((status) => status === 401)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(95);
    expect((await fromAddress('molar-42', 100)).statusCode).toBe(429);
    expect(await linksOf(owner)).toMatchObject([{ views: 0 }]);
  }, 60_000);
});

describe('whose items and links', () => {
  it('refuses to share another member’s photo or record, and makes no link', async () => {
    const [alice, bob] = [await factory.loggedInMember(), await factory.loggedInMember()];
    const photo = await addPhoto(alice);
    const record = await addRecord(alice);
    const own = await addPhoto(bob);
    for (const body of [
      { photos: [photo.id] },
      { records: [record.id] },
      { photos: [own.id, photo.id] },
    ]) {
      const res = await share(bob, body);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ detail: shareItemNotFoundMessage });
    }
    expect(await linksOf(bob)).toEqual([]);
    const rows = await t.db
      .select()
      .from(shareLinkPhotos)
      .where(eq(shareLinkPhotos.oralPhotoId, photo.id));
    expect(rows).toEqual([]);
  });

  it('hides a member’s links from another member, who cannot revoke them', async () => {
    const [alice, bob] = [await factory.loggedInMember(), await factory.loggedInMember()];
    const created = await shareOk(alice, { photos: [(await addPhoto(alice)).id] });
    expect(await linksOf(bob)).toEqual([]);
    const res = await t.request('DELETE', shareLinkPaths.one(created.id), as(bob));
    expect(res.statusCode).toBe(404);
    expect((await open(created.token)).statusCode).toBe(200);
  });

  it('needs a signed-in member to make, list and revoke links', async () => {
    expect((await t.request('GET', shareLinkPaths.list)).statusCode).toBe(401);
    expect(
      (await t.request('POST', shareLinkPaths.list, { body: { label: 'x' } })).statusCode,
    ).toBe(401);
  });
});

describe('bad input', () => {
  it.each([
    ['no items', { photos: [], records: [] }, 'photos'],
    ['0 hours', { expires_in_hours: 0 }, 'expires_in_hours'],
    ['31 days', { expires_in_hours: 721 }, 'expires_in_hours'],
    ['no label', { label: '  ' }, 'label'],
    ['a short passcode', { passcode: 'abc' }, 'passcode'],
    ['a photo id that is not one', { photos: ['nope'] }, 'photos.0'],
    ['a Dental AI result id that is not one', { dental_ai: ['nope'] }, 'dental_ai.0'],
    [
      'more than 50 items with results',
      { dental_ai: Array.from({ length: 50 }, () => randomUUID()) },
      'photos',
    ],
    ['a report id that is not one', { reports: ['nope'] }, 'reports.0'],
    [
      'more than 50 items with reports',
      { reports: Array.from({ length: 50 }, () => randomUUID()) },
      'photos',
    ],
  ])('answers 400 for %s and makes nothing', async (_name, body, field) => {
    const owner = await factory.loggedInMember();
    const photo = await addPhoto(owner);
    const res = await share(owner, { photos: [photo.id], ...body });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain(problemContentType);
    expect(Object.keys(res.json<{ errors: object }>().errors)).toContain(field);
    expect(await linksOf(owner)).toEqual([]);
  });
});

describe('headers', () => {
  it('keeps the recipient’s answers, errors included, out of indexes, caches and referrers', async () => {
    const owner = await factory.loggedInMember();
    const created = await shareOk(owner, { photos: [(await addPhoto(owner)).id] });
    for (const res of [await open(created.token), await open('B'.repeat(43))]) {
      expect(res.headers['x-robots-tag']).toBe('noindex, nofollow');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });
});

describe('audit', () => {
  it('writes each opening to the owner’s chain with the link as the actor, failures too', async () => {
    const owner = await factory.loggedInMember();
    const created = await shareOk(owner, {
      photos: [(await addPhoto(owner)).id],
      passcode: 'molar-42',
    });
    expect(await newestRowOf(owner.id)).toMatchObject({
      actor: owner.id,
      action: 'create',
      resourceType: 'share_link',
      resourceId: created.id,
    });
    const linkRow = {
      actor: `share_link:${created.id}`,
      action: 'read',
      resourceType: 'share_link',
      resourceId: created.id,
      userAgent: 'Dentist browser',
    };
    await open(created.token, 'wrong');
    expect(await newestRowOf(owner.id)).toMatchObject({ ...linkRow, result: 'failure' });
    await open(created.token, 'molar-42');
    expect(await newestRowOf(owner.id)).toMatchObject({ ...linkRow, result: 'success' });
    await t.request('DELETE', shareLinkPaths.one(created.id), as(owner));
    expect(await newestRowOf(owner.id)).toMatchObject({
      actor: owner.id,
      action: 'delete',
      resourceId: created.id,
    });
    await open(created.token, 'molar-42');
    expect(await newestRowOf(owner.id)).toMatchObject({ ...linkRow, result: 'failure' });
  });
});

describe('rate limit', () => {
  it('limits openings per client address', async () => {
    const limited = await buildTestApp({ env: { RATE_LIMIT_PER_IP: '3' } });
    try {
      const res = [];
      for (let attempt = 0; attempt < 4; attempt++) {
        res.push(
          await limited.request('GET', shareLinkPaths.shared('C'.repeat(43)), {
            headers: { 'user-agent': 'x' },
          }),
        );
      }
      expect(res.map((answer) => answer.statusCode)).toEqual([404, 404, 404, 429]);
      expect(res[3]?.headers['retry-after']).toBeDefined();
    } finally {
      await limited.close();
    }
  });
});

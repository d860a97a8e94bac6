import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import {
  accountPaths,
  imageTooLargeMessage,
  oralPhotoPaths,
  plans,
  unsupportedImageMessage,
  type Account,
  type OralPhoto,
} from '@dental/contracts';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories } from '#api-test/factories';
import { fetchLink, fillStorage, storedKeys } from '#api-test/support/files';
import {
  dataUrlOf,
  htmlPage,
  makePdf,
  makePhoneJpeg,
  makePng,
  makeWebp,
  padPng,
  svgImage,
} from '#api-test/fixtures/upload-test-files';

let t: TestApp;
let factory: ReturnType<typeof factories>;
let png: string;

beforeAll(async () => {
  t = await buildTestApp();
  factory = factories(t);
  png = dataUrlOf(await makePng(), 'image/png');
});
afterAll(() => t.close());

type Member = Awaited<ReturnType<ReturnType<typeof factories>['loggedInMember']>>;

const post = (member: Member, body: unknown) =>
  t.request('POST', oralPhotoPaths.list, { token: member.tokens.access, body });
const list = (member: Member, query = '') =>
  t.request('GET', `${oralPhotoPaths.list}${query}`, { token: member.tokens.access });

async function addPhoto(
  member: Member,
  fields: Partial<{
    shoot_date: string;
    photo_type: string;
    note: string;
    image_link: string;
  }> = {},
): Promise<OralPhoto> {
  const res = await post(member, {
    shoot_date: '2026-03-01',
    photo_type: 'X-ray',
    note: 'Lower left molar',
    image_link: png,
    ...fields,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<OralPhoto>();
}

describe('POST /api/oral-photo/', () => {
  it('stores the photo and answers it with signed links to the original and a thumbnail', async () => {
    const member = await factory.loggedInMember();
    const photo = await addPhoto(member);
    expect(photo).toMatchObject({
      shoot_date: '2026-03-01',
      photo_type: 'X-ray',
      note: 'Lower left molar',
    });
    expect(photo.date).toBe(t.clock.now().toISOString());

    const original = await fetchLink(t, photo.image_link);
    expect(original.statusCode).toBe(200);
    expect(original.headers['content-type']).toBe('image/png');
    expect(original.headers['x-content-type-options']).toBe('nosniff');
    expect(original.headers['cache-control']).toBe('no-store');
    expect(original.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(original.headers['content-disposition']).toBe(
      `inline; filename="X-ray-2026-03-01.png"; filename*=UTF-8''X-ray-2026-03-01.png`,
    );
    expect((await sharp(original.rawPayload).metadata()).width).toBe(64);

    const thumbnail = await fetchLink(t, photo.thumbnail_link);
    expect(thumbnail.statusCode).toBe(200);
    expect(thumbnail.headers['content-type']).toBe('image/webp');
    expect((await sharp(thumbnail.rawPayload).metadata()).format).toBe('webp');
    expect(await storedKeys(t, member.id)).toHaveLength(2);
  });

  it('keeps the orientation and drops location metadata', async () => {
    const member = await factory.loggedInMember();
    const photo = await addPhoto(member, {
      image_link: dataUrlOf(await makePhoneJpeg(80, 40), 'image/jpeg'),
    });
    const original = await fetchLink(t, photo.image_link);
    const metadata = await sharp(original.rawPayload).metadata();
    // Stored sideways with orientation 6: upright it is 40 wide and 80 tall.
    expect([metadata.width, metadata.height]).toEqual([40, 80]);
    expect(metadata.exif).toBeUndefined();
    expect(metadata.xmp).toBeUndefined();
  });

  it('accepts an image of exactly 5 MB and refuses one byte more with the exact message', async () => {
    const member = await factory.loggedInMember();
    const base = await makePng();
    const exact = padPng(base, 5 * 1024 * 1024);
    expect(exact.length).toBe(5 * 1024 * 1024);
    await addPhoto(member, { image_link: dataUrlOf(exact, 'image/png') });

    const over = await post(member, {
      shoot_date: '2026-03-01',
      photo_type: 'Photo',
      image_link: dataUrlOf(padPng(base, 5 * 1024 * 1024 + 1), 'image/png'),
    });
    expect(over.statusCode).toBe(413);
    expect(over.json()).toMatchObject({ status: 413, detail: imageTooLargeMessage });
    expect(await storedKeys(t, member.id)).toHaveLength(2);
  });

  it.each([
    ['an SVG image', svgImage, 'image/svg+xml'],
    ['an HTML page renamed .png', htmlPage, 'image/png'],
    ['a PDF claimed to be a PNG', makePdf(), 'image/png'],
  ])('refuses %s with 415 and stores nothing', async (_name, bytes, claimed) => {
    const member = await factory.loggedInMember();
    const res = await post(member, {
      shoot_date: '2026-03-01',
      photo_type: 'Photo',
      image_link: dataUrlOf(bytes, claimed),
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({ detail: unsupportedImageMessage });
    expect(await storedKeys(t, member.id)).toEqual([]);
  });

  it.each([
    ['shoot_date', { shoot_date: '03/01/2026' }],
    ['shoot_date', { shoot_date: '2026-02-30' }],
    ['photo_type', { photo_type: 'Selfie' }],
    ['image_link', { image_link: 'https://example.com/x.png' }],
    ['note', { note: 'x'.repeat(2001) }],
  ])('refuses a bad %s with a field error and stores nothing', async (field, change) => {
    const member = await factory.loggedInMember();
    const res = await post(member, {
      shoot_date: '2026-03-01',
      photo_type: 'Photo',
      image_link: png,
      ...change,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ errors: Record<string, string[]> }>().errors).toHaveProperty(field);
    expect((await list(member)).json()).toEqual([]);
    expect(await storedKeys(t, member.id)).toEqual([]);
  });

  it('refuses a missing field', async () => {
    const member = await factory.loggedInMember();
    const res = await post(member, { photo_type: 'Photo', image_link: png });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ errors: Record<string, string[]> }>().errors).toHaveProperty('shoot_date');
  });

  it('refuses an upload past the plan’s storage with 422 naming the limit and the next plan', async () => {
    const member = await factory.loggedInMember();
    await fillStorage(t, member.id, plans.Silver.storageBytes - 100);
    const res = await post(member, {
      shoot_date: '2026-03-01',
      photo_type: 'Photo',
      image_link: png,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      detail:
        'This upload would exceed the 1GB storage of your Silver plan. The Gold plan raises it to 5GB.',
    });
    // The blobs written before the check are removed again; only the filler row remains.
    expect(await storedKeys(t, member.id)).toEqual([]);
    expect((await list(member, '?startDate=2026-01-01')).json()).toEqual([]);
  });

  it('lets concurrent uploads together stay within the quota', async () => {
    const member = await factory.loggedInMember();
    await addPhoto(member);
    const onePhoto = await storageUsed(member);
    // Room for one more photo of the same size, not for two.
    await fillStorage(
      t,
      member.id,
      plans.Silver.storageBytes - onePhoto - Math.floor(onePhoto * 1.5),
    );
    const results = await Promise.all(
      [1, 2, 3].map(() =>
        post(member, { shoot_date: '2026-03-02', photo_type: 'Photo', image_link: png }),
      ),
    );
    expect(results.map((res) => res.statusCode).sort()).toEqual([201, 422, 422]);
    expect(await storageUsed(member)).toBeLessThanOrEqual(plans.Silver.storageBytes);
    expect(await storedKeys(t, member.id)).toHaveLength(4);
  });

  it('counts stored photos, original and thumbnail, in the account’s storage figures', async () => {
    const member = await factory.loggedInMember();
    const empty = await t.request('GET', accountPaths.account, { token: member.tokens.access });
    expect(empty.json<Account>()).toMatchObject({
      storage_used_bytes: 0,
      storage_quota_bytes: plans.Silver.storageBytes,
    });
    const photo = await addPhoto(member);
    const original = await fetchLink(t, photo.image_link);
    const thumbnail = await fetchLink(t, photo.thumbnail_link);
    expect(await storageUsed(member)).toBe(
      original.rawPayload.length + thumbnail.rawPayload.length,
    );
  });

  it('needs a login', async () => {
    const res = await t.request('POST', oralPhotoPaths.list, { body: {} });
    expect(res.statusCode).toBe(401);
  });
});

async function storageUsed(member: Member): Promise<number> {
  const account = await t.request('GET', accountPaths.account, { token: member.tokens.access });
  return account.json<Account>().storage_used_bytes;
}

describe('GET /api/oral-photo/', () => {
  it('filters by type and shoot date, newest first', async () => {
    const member = await factory.loggedInMember();
    const january = await addPhoto(member, { shoot_date: '2026-01-15', photo_type: 'Photo' });
    const march = await addPhoto(member, { shoot_date: '2026-03-10', photo_type: 'X-ray' });
    const may = await addPhoto(member, { shoot_date: '2026-05-01', photo_type: 'Photo' });
    const ids = async (query: string) =>
      (await list(member, query)).json<OralPhoto[]>().map((photo) => photo.id);

    expect(await ids('')).toEqual([may.id, march.id, january.id]);
    expect(await ids('?photoType=all')).toEqual([may.id, march.id, january.id]);
    expect(await ids('?photoType=Photo')).toEqual([may.id, january.id]);
    expect(await ids('?photoType=X-ray')).toEqual([march.id]);
    expect(await ids('?startDate=2026-01-16&endDate=2026-05-01')).toEqual([may.id, march.id]);
    expect(await ids('?startDate=2026-03-10&endDate=2026-03-10')).toEqual([march.id]);
    expect(await ids('?photoType=Photo&endDate=2026-04-30')).toEqual([january.id]);
  });

  it.each([
    ['photoType', '?photoType=selfie'],
    ['startDate', '?startDate=yesterday'],
    ['endDate', '?startDate=2026-05-02&endDate=2026-05-01'],
  ])('refuses a bad %s', async (field, query) => {
    const member = await factory.loggedInMember();
    const res = await list(member, query);
    expect(res.statusCode).toBe(400);
    expect(res.json<{ errors: Record<string, string[]> }>().errors).toHaveProperty(field);
  });
});

describe('GET, PUT and DELETE /api/oral-photo/{id}/', () => {
  it('reads one photo', async () => {
    const member = await factory.loggedInMember();
    const photo = await addPhoto(member);
    const res = await t.request('GET', oralPhotoPaths.one(photo.id), {
      token: member.tokens.access,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(photo);
  });

  it('edits date, type and note and keeps the image when none is sent', async () => {
    const member = await factory.loggedInMember();
    const photo = await addPhoto(member);
    const res = await t.request('PUT', oralPhotoPaths.one(photo.id), {
      token: member.tokens.access,
      body: { shoot_date: '2026-02-02', photo_type: 'Photo', note: 'After cleaning' },
    });
    expect(res.statusCode).toBe(200);
    const edited = res.json<OralPhoto>();
    expect(edited).toMatchObject({
      id: photo.id,
      shoot_date: '2026-02-02',
      photo_type: 'Photo',
      note: 'After cleaning',
    });
    expect((await fetchLink(t, edited.image_link)).statusCode).toBe(200);
  });

  it('replaces the image when a new one is sent and removes the old blobs', async () => {
    const member = await factory.loggedInMember();
    const photo = await addPhoto(member);
    const before = await storedKeys(t, member.id);
    const res = await t.request('PUT', oralPhotoPaths.one(photo.id), {
      token: member.tokens.access,
      body: {
        shoot_date: '2026-03-01',
        photo_type: 'X-ray',
        image_link: dataUrlOf(await makeWebp(30, 20), 'image/webp'),
      },
    });
    expect(res.statusCode).toBe(200);
    const edited = res.json<OralPhoto>();
    expect(edited.note).toBe('');
    const original = await fetchLink(t, edited.image_link);
    expect(original.headers['content-type']).toBe('image/webp');
    expect((await fetchLink(t, photo.image_link)).statusCode).toBe(404);
    const after = await storedKeys(t, member.id);
    expect(after).toHaveLength(2);
    expect(after.filter((key) => before.includes(key))).toEqual([]);
  });

  it('deletes the photo and its blobs', async () => {
    const member = await factory.loggedInMember();
    const photo = await addPhoto(member);
    const res = await t.request('DELETE', oralPhotoPaths.one(photo.id), {
      token: member.tokens.access,
    });
    expect(res.statusCode).toBe(204);
    expect(await storedKeys(t, member.id)).toEqual([]);
    expect((await fetchLink(t, photo.image_link)).statusCode).toBe(404);
    const again = await t.request('DELETE', oralPhotoPaths.one(photo.id), {
      token: member.tokens.access,
    });
    expect(again.statusCode).toBe(404);
  });

  it('hides another member’s photo on read, edit, delete and in the list', async () => {
    const [ann, bob] = await Promise.all([factory.loggedInMember(), factory.loggedInMember()]);
    const photo = await addPhoto(ann);
    const as = { token: bob.tokens.access };
    expect((await t.request('GET', oralPhotoPaths.one(photo.id), as)).statusCode).toBe(404);
    const edit = await t.request('PUT', oralPhotoPaths.one(photo.id), {
      ...as,
      body: { shoot_date: '2026-01-01', photo_type: 'Photo', note: 'mine now' },
    });
    expect(edit.statusCode).toBe(404);
    const replace = await t.request('PUT', oralPhotoPaths.one(photo.id), {
      ...as,
      body: { shoot_date: '2026-01-01', photo_type: 'Photo', image_link: png },
    });
    expect(replace.statusCode).toBe(404);
    expect(await storedKeys(t, bob.id)).toEqual([]);
    expect((await t.request('DELETE', oralPhotoPaths.one(photo.id), as)).statusCode).toBe(404);
    expect((await list(bob)).json()).toEqual([]);
    // Ann's photo is untouched.
    const own = await t.request('GET', oralPhotoPaths.one(photo.id), {
      token: ann.tokens.access,
    });
    expect(own.json()).toEqual(photo);
  });

  it('refuses an id that is not one', async () => {
    const member = await factory.loggedInMember();
    const res = await t.request('GET', oralPhotoPaths.one('not-an-id'), {
      token: member.tokens.access,
    });
    expect(res.statusCode).toBe(400);
  });
});

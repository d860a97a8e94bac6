import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oralPhotoPaths, toothNumberMessage, type OralPhoto } from '@dental/contracts';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories } from '#api-test/factories';
import { storedKeys } from '#api-test/support/files';
import { dataUrlOf, makePng } from '#api-test/fixtures/upload-test-files';

/** Tooth tags on photos and the per-tooth list (docs/product/records.md#tooth-tags). */

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
type FieldErrors = Record<string, string[]>;

const post = (member: Member, body: Record<string, unknown>) =>
  t.request('POST', oralPhotoPaths.list, {
    token: member.tokens.access,
    body: { shoot_date: '2026-03-01', photo_type: 'X-ray', image_link: png, ...body },
  });
const put = (member: Member, id: string, body: Record<string, unknown>) =>
  t.request('PUT', oralPhotoPaths.one(id), {
    token: member.tokens.access,
    body: { shoot_date: '2026-03-01', photo_type: 'X-ray', ...body },
  });
const get = (member: Member, id: string) =>
  t.request('GET', oralPhotoPaths.one(id), { token: member.tokens.access });
const list = (member: Member, query: string) =>
  t.request('GET', `${oralPhotoPaths.list}${query}`, { token: member.tokens.access });

async function addPhoto(member: Member, body: Record<string, unknown>): Promise<OralPhoto> {
  const res = await post(member, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<OralPhoto>();
}

const datesOf = (photos: OralPhoto[]) => photos.map((photo) => photo.shoot_date);

describe('tooth tags on a photo', () => {
  it('stores the teeth sorted and without repeats, and answers them on every read', async () => {
    const member = await factory.loggedInMember();
    const photo = await addPhoto(member, { teeth: [47, 16, 11, 16] });
    expect(photo.teeth).toEqual([11, 16, 47]);
    expect((await get(member, photo.id)).json<OralPhoto>().teeth).toEqual([11, 16, 47]);
    expect((await list(member, '')).json<OralPhoto[]>()[0]?.teeth).toEqual([11, 16, 47]);
  });

  it('answers no teeth for a photo added without them', async () => {
    const member = await factory.loggedInMember();
    expect((await addPhoto(member, {})).teeth).toEqual([]);
  });

  it('keeps the teeth on an edit that does not send them, and replaces or clears them when sent', async () => {
    const member = await factory.loggedInMember();
    const photo = await addPhoto(member, { teeth: [36, 37] });
    const kept = await put(member, photo.id, { note: 'New note' });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json<OralPhoto>()).toMatchObject({ note: 'New note', teeth: [36, 37] });
    const withImage = await put(member, photo.id, { image_link: png });
    expect(withImage.json<OralPhoto>().teeth).toEqual([36, 37]);
    const replaced = await put(member, photo.id, { teeth: [46, 26] });
    expect(replaced.json<OralPhoto>().teeth).toEqual([26, 46]);
    const cleared = await put(member, photo.id, { teeth: [] });
    expect(cleared.json<OralPhoto>().teeth).toEqual([]);
    expect((await get(member, photo.id)).json<OralPhoto>().teeth).toEqual([]);
  });

  it.each([
    ['a baby tooth', [16, 55], 'teeth.1'],
    ['a position past 8', [19], 'teeth.0'],
    ['quadrant 0', [8], 'teeth.0'],
    ['a fraction', [16.5], 'teeth.0'],
    ['a string', ['16'], 'teeth.0'],
  ])('refuses %s on add with a field error and stores nothing', async (_, teeth, field) => {
    const member = await factory.loggedInMember();
    const res = await post(member, { teeth });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ errors: FieldErrors }>().errors[field]).toEqual([toothNumberMessage]);
    expect((await list(member, '')).json()).toEqual([]);
    expect(await storedKeys(t, member.id)).toEqual([]);
  });

  it.each([
    ['not a list', 16],
    ['more than 32 entries', Array<number>(33).fill(16)],
  ])('refuses teeth that are %s', async (_, teeth) => {
    const member = await factory.loggedInMember();
    const res = await post(member, { teeth });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ errors: FieldErrors }>().errors).toHaveProperty('teeth');
  });

  it('refuses a bad tooth on edit and changes nothing', async () => {
    const member = await factory.loggedInMember();
    const photo = await addPhoto(member, { teeth: [16], note: 'Before' });
    const res = await put(member, photo.id, { teeth: [16, 99], note: 'After' });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ errors: FieldErrors }>().errors['teeth.1']).toEqual([toothNumberMessage]);
    expect((await get(member, photo.id)).json()).toEqual(photo);
  });
});

describe('GET /api/oral-photo/?tooth=', () => {
  it('lists only that tooth’s photos, newest first, or oldest first with sequence=ascending', async () => {
    const member = await factory.loggedInMember();
    await addPhoto(member, { shoot_date: '2025-06-01', teeth: [16, 17] });
    await addPhoto(member, { shoot_date: '2024-01-15', teeth: [16] });
    await addPhoto(member, { shoot_date: '2026-02-01', teeth: [26] });
    await addPhoto(member, { shoot_date: '2026-01-10', photo_type: 'Photo', teeth: [15, 16] });
    await addPhoto(member, { shoot_date: '2023-05-05' });

    const newest = await list(member, '?tooth=16');
    expect(newest.statusCode).toBe(200);
    expect(datesOf(newest.json())).toEqual(['2026-01-10', '2025-06-01', '2024-01-15']);
    const timeline = await list(member, '?tooth=16&sequence=ascending');
    expect(datesOf(timeline.json())).toEqual(['2024-01-15', '2025-06-01', '2026-01-10']);
    expect(datesOf((await list(member, '?tooth=26')).json())).toEqual(['2026-02-01']);
    expect((await list(member, '?tooth=48')).json()).toEqual([]);
    // The other filters still apply.
    expect(
      datesOf((await list(member, '?tooth=16&photoType=X-ray&sequence=ascending')).json()),
    ).toEqual(['2024-01-15', '2025-06-01']);
    // Without a tooth, sequence=ascending sorts the whole list.
    expect(datesOf((await list(member, '?sequence=ascending')).json())[0]).toBe('2023-05-05');
  });

  it('pages the timeline with the tooth and sequence kept in the next link', async () => {
    const member = await factory.loggedInMember();
    await addPhoto(member, { shoot_date: '2025-01-01', teeth: [21] });
    await addPhoto(member, { shoot_date: '2024-01-01', teeth: [21] });
    const first = await list(member, '?tooth=21&sequence=ascending&limit=1');
    expect(datesOf(first.json())).toEqual(['2024-01-01']);
    const next = /<([^>]+)>; rel="next"/.exec(String(first.headers.link))?.[1] ?? '';
    expect(next).toContain('tooth=21');
    expect(next).toContain('sequence=ascending');
    const second = await t.request('GET', next, { token: member.tokens.access });
    expect(datesOf(second.json())).toEqual(['2025-01-01']);
  });

  it.each([
    ['tooth', '?tooth=55'],
    ['tooth', '?tooth=abc'],
    ['tooth', '?tooth=16.5'],
    ['sequence', '?sequence=oldest'],
  ])('refuses a bad %s (%s) with a field error', async (field, query) => {
    const member = await factory.loggedInMember();
    const res = await list(member, query);
    expect(res.statusCode).toBe(400);
    expect(res.json<{ errors: FieldErrors }>().errors).toHaveProperty(field);
  });

  it('never shows another member’s photos of the tooth, and hides them from their edits', async () => {
    const [ann, bob] = await Promise.all([factory.loggedInMember(), factory.loggedInMember()]);
    const photo = await addPhoto(ann, { teeth: [16] });
    await addPhoto(bob, { teeth: [17] });
    expect((await list(bob, '?tooth=16')).json()).toEqual([]);
    expect((await list(bob, '?tooth=16&sequence=ascending')).json()).toEqual([]);
    expect((await get(bob, photo.id)).statusCode).toBe(404);
    expect((await put(bob, photo.id, { teeth: [11] })).statusCode).toBe(404);
    expect((await get(ann, photo.id)).json()).toEqual(photo);
    expect(datesOf((await list(ann, '?tooth=16')).json())).toEqual([photo.shoot_date]);
  });
});

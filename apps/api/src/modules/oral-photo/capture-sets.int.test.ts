import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  captureFieldsTogetherMessage,
  captureSetNotFoundMessage,
  captureViews,
  oralPhotoPaths,
  type CaptureSet,
  type CaptureView,
  type OralPhoto,
} from '@dental/contracts';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories } from '#api-test/factories';
import { newestAuditRow } from '#api-test/support/audit-rows';
import { dataUrlOf, makePng } from '#api-test/fixtures/upload-test-files';
import { captureViewTakenMessage } from './oral-photo.service';

/** Guided captures: five views stored as photos of one set, read as a set with the one before
 *  (docs/product/records.md#guided-capture). */

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

const post = (member: Member, body: Record<string, unknown>) =>
  t.request('POST', oralPhotoPaths.list, {
    token: member.tokens.access,
    body: { shoot_date: '2026-11-29', photo_type: 'Photo', image_link: png, ...body },
  });
const getSet = (member: Member, setId: string) =>
  t.request('GET', oralPhotoPaths.captureSet(setId), { token: member.tokens.access });

/** Stores the views (all five unless told) of a new set dated `shootDate`; answers its id. */
async function captureSet(
  member: Member,
  shootDate: string,
  views: readonly CaptureView[] = captureViews,
): Promise<string> {
  const setId = randomUUID();
  for (const view of views) {
    const res = await post(member, {
      shoot_date: shootDate,
      capture_set_id: setId,
      capture_view: view,
    });
    expect(res.statusCode, res.body).toBe(201);
  }
  return setId;
}

describe('a guided capture', () => {
  it('stores each view as a photo of the set, answered with its set and view', async () => {
    const member = await factory.loggedInMember();
    const setId = randomUUID();
    const res = await post(member, { capture_set_id: setId, capture_view: 'upper' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json<OralPhoto>()).toMatchObject({
      capture_set_id: setId,
      capture_view: 'upper',
      photo_type: 'Photo',
    });
    const listed = await t.request('GET', oralPhotoPaths.list, { token: member.tokens.access });
    expect(listed.json<OralPhoto[]>()[0]).toMatchObject({
      capture_set_id: setId,
      capture_view: 'upper',
    });
  });

  it('answers null set and view for a photo added as a file', async () => {
    const member = await factory.loggedInMember();
    const res = await post(member, {});
    expect(res.json<OralPhoto>()).toMatchObject({ capture_set_id: null, capture_view: null });
  });

  it('answers the set in view order with the set taken before it', async () => {
    const member = await factory.loggedInMember();
    const first = await captureSet(member, '2026-10-01');
    const second = await captureSet(member, '2026-11-01');
    // Stored in another order, answered in the views' order.
    const third = await captureSet(member, '2026-11-29', ['right', 'front', 'lower']);
    const res = await getSet(member, third);
    expect(res.statusCode, res.body).toBe(200);
    const set = res.json<CaptureSet>();
    expect(set.id).toBe(third);
    expect(set.shoot_date).toBe('2026-11-29');
    expect(set.photos.map((photo) => photo.capture_view)).toEqual(['front', 'lower', 'right']);
    expect(set.previous?.id).toBe(second);
    expect(set.previous?.shoot_date).toBe('2026-11-01');
    expect(set.previous?.photos.map((photo) => photo.capture_view)).toEqual([...captureViews]);
    const oldest = (await getSet(member, first)).json<CaptureSet>();
    expect(oldest.previous).toBeNull();
  });

  it('leaves a read row in the account activity', async () => {
    const member = await factory.loggedInMember();
    const setId = await captureSet(member, '2026-11-29', ['front']);
    await getSet(member, setId);
    expect(await newestAuditRow(t, member.id)).toMatchObject({
      actor: member.id,
      action: 'read',
      resourceType: 'oral_photo_set',
      resourceId: setId,
      result: 'success',
    });
  });

  it('hides another member’s set, and never offers it as the previous set', async () => {
    const [alice, bob] = await Promise.all([factory.loggedInMember(), factory.loggedInMember()]);
    const aliceSet = await captureSet(alice, '2026-10-01', ['front']);
    const res = await getSet(bob, aliceSet);
    expect(res.statusCode).toBe(404);
    expect(res.json<{ detail: string }>().detail).toBe(captureSetNotFoundMessage);
    const bobSet = await captureSet(bob, '2026-11-29', ['front']);
    expect((await getSet(bob, bobSet)).json<CaptureSet>().previous).toBeNull();
  });

  it('takes a set id another member used as a set of its own', async () => {
    const [alice, bob] = await Promise.all([factory.loggedInMember(), factory.loggedInMember()]);
    const setId = await captureSet(alice, '2026-11-29', ['front']);
    const res = await post(bob, { capture_set_id: setId, capture_view: 'front' });
    expect(res.statusCode, res.body).toBe(201);
    const bobs = (await getSet(bob, setId)).json<CaptureSet>();
    expect(bobs.photos.map((photo) => photo.id)).toEqual([res.json<OralPhoto>().id]);
  });

  it('refuses a second photo of a view of the set, and stores nothing', async () => {
    const member = await factory.loggedInMember();
    const setId = await captureSet(member, '2026-11-29', ['front']);
    const res = await post(member, { capture_set_id: setId, capture_view: 'front' });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json<{ detail: string }>().detail).toBe(captureViewTakenMessage);
    expect((await getSet(member, setId)).json<CaptureSet>().photos).toHaveLength(1);
  });

  it.each([
    ['a set without a view', { capture_set_id: randomUUID() }],
    ['a view without a set', { capture_view: 'front' }],
  ])('refuses %s, and stores nothing', async (_, fields) => {
    const member = await factory.loggedInMember();
    const res = await post(member, fields);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json<{ detail: string }>().detail).toBe(captureFieldsTogetherMessage);
    const listed = await t.request('GET', oralPhotoPaths.list, { token: member.tokens.access });
    expect(listed.json<OralPhoto[]>()).toEqual([]);
  });

  it.each([
    ['an unknown view', { capture_set_id: randomUUID(), capture_view: 'back' }, 'capture_view'],
    [
      'a set id that is no uuid',
      { capture_set_id: 'set-1', capture_view: 'front' },
      'capture_set_id',
    ],
  ])('refuses %s with a problem naming the field', async (_, fields, field) => {
    const member = await factory.loggedInMember();
    const res = await post(member, fields);
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(Object.keys(res.json<{ errors: Record<string, string[]> }>().errors)).toContain(field);
  });

  it('answers 400 for a set id that is no uuid, and 401 without a token', async () => {
    const member = await factory.loggedInMember();
    expect((await getSet(member, 'set-1')).statusCode).toBe(400);
    expect((await t.request('GET', oralPhotoPaths.captureSet(randomUUID()))).statusCode).toBe(401);
  });

  it('keeps the set and view when the photo is edited', async () => {
    const member = await factory.loggedInMember();
    const setId = await captureSet(member, '2026-11-29', ['left']);
    const [photo] = (await getSet(member, setId)).json<CaptureSet>().photos;
    const res = await t.request('PUT', oralPhotoPaths.one(photo?.id ?? ''), {
      token: member.tokens.access,
      body: { shoot_date: '2026-11-28', photo_type: 'Photo', note: 'After brushing' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<OralPhoto>()).toMatchObject({ capture_set_id: setId, capture_view: 'left' });
  });
});

import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { and, count, eq, sql } from 'drizzle-orm';
import sharp, { type Sharp } from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  dentalAiPaths,
  dentalAiResult,
  dentalAiResultList,
  dentalAiStatus,
  dentalAiKindUnavailableMessage,
  dentalAiPhotoNotFoundMessage,
  dentalAiUnavailableMessage,
  dentalAiWrongKindMessage,
  imageTooLargeMessage,
  newOralPhotoRequest,
  oralPhotoPaths,
  plans,
  unsupportedImageMessage,
  type DentalAiResult,
} from '@dental/contracts';
import { writeFixtureModel } from '#api-test/fixtures/fixture-model';
import {
  startInferenceTestServer,
  type InferenceTestServer,
} from '#api-test/mocks/inference-test-server';
import { rowsOf } from '#api/db/client';
import { auditEvents, dentalAiResults, dentalAiUses } from '#api/db/schema';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories } from '#api-test/factories';
import { fetchLink, storedKeys } from '#api-test/support/files';
import { FilesRepository } from '../files/files.repository';
import {
  dataUrlOf,
  htmlPage,
  makePng,
  padPng,
  svgImage,
} from '#api-test/fixtures/upload-test-files';
import { dentalAiResultNotFoundMessage, detectionFailedMessage } from './dental-ai.service';

let t: TestApp;
let factory: ReturnType<typeof factories>;
let modelDir: string;
let drawing: Buffer;
/** A grey picture (an X-ray to the kind rule); the fixture model finds nothing on it. */
let greyXray: Buffer;

const red = { r: 255, g: 0, b: 0 };
const blue = { r: 0, g: 0, b: 255 };

/**
 * A colour drawing (so a photo to the kind rule): 128×96 black with a red square at (16,16)–(48,48) and a blue bar at (80,32)–(96,64). The
 * fixture model (64×64 input: scale 0.5, 8 px of grey letterbox above and below) answers one box
 * per 8×8 input cell that is pure red or pure blue, so every 16×16 block of these shapes is a box.
 */
async function makeDrawing(): Promise<Sharp> {
  const shape = (width: number, height: number, background: typeof red) =>
    sharp({ create: { width, height, channels: 3, background } })
      .png()
      .toBuffer();
  return sharp({ create: { width: 128, height: 96, channels: 3, background: '#000' } }).composite([
    { input: await shape(32, 32, red), left: 16, top: 16 },
    { input: await shape(16, 32, blue), left: 80, top: 32 },
  ]);
}

/** The boxes of makeDrawing, in the pixels of the 128×96 image. */
const expectedBoxes = [
  [16, 16, 32, 32, 'red'],
  [32, 16, 48, 32, 'red'],
  [16, 32, 32, 48, 'red'],
  [32, 32, 48, 48, 'red'],
  [80, 32, 96, 48, 'blue'],
  [80, 48, 96, 64, 'blue'],
] as const;

beforeAll(async () => {
  modelDir = await mkdtemp(path.join(os.tmpdir(), 'dental-ai-model-'));
  // One fixture model under three names, so a result's model_name shows which one ran.
  const model = (name: string) => path.join(modelDir, `${name}.onnx`);
  for (const name of ['caries', 'caries-photo', 'wisdom-teeth'])
    await writeFixtureModel(model(name));
  t = await buildTestApp({
    env: {
      DENTAL_AI_MODEL_CARIES: model('caries'),
      DENTAL_AI_MODEL_CARIES_PHOTO: model('caries-photo'),
      DENTAL_AI_MODEL_WISDOM_TEETH: model('wisdom-teeth'),
      DENTAL_AI_SHIPPED_MODELS: 'off',
    },
  });
  factory = factories(t);
  drawing = await (await makeDrawing()).png().toBuffer();
  greyXray = await sharp({ create: { width: 120, height: 60, channels: 3, background: '#888' } })
    .jpeg()
    .toBuffer();
});
afterEach(() => {
  vi.restoreAllMocks();
});
afterAll(async () => {
  await t.close();
  await rm(modelDir, { recursive: true, force: true });
});

type Member = Awaited<ReturnType<ReturnType<typeof factories>['loggedInMember']>>;

const post = (member: Member, body: unknown) =>
  t.request('POST', dentalAiPaths.root, { token: member.tokens.access, body });

async function detect(member: Member, body: object = {}): Promise<DentalAiResult> {
  const res = await post(member, { image_url: dataUrlOf(drawing, 'image/png'), ...body });
  expect(res.statusCode, res.body).toBe(201);
  return dentalAiResult.parse(res.json());
}

async function resultCount(userId: string): Promise<number> {
  const [row] = await t.db
    .select({ results: count() })
    .from(dentalAiResults)
    .where(eq(dentalAiResults.userId, userId));
  return row?.results ?? 0;
}

async function useCount(userId: string): Promise<number> {
  const [row] = await t.db
    .select({ uses: count() })
    .from(dentalAiUses)
    .where(eq(dentalAiUses.userId, userId));
  return row?.uses ?? 0;
}

/** Uses spent without running a model: the quota counts the uses table. */
async function spendUses(userId: string, uses: number): Promise<void> {
  await t.db
    .insert(dentalAiUses)
    .values(Array.from({ length: uses }, () => ({ userId, createdAt: t.clock.now() })));
}

/** The member's audit rows of one resource type, as [action, result], oldest first. */
async function auditOf(member: Member, resourceType: 'dental_ai_result' | 'dental_ai_result_list') {
  const rows = await t.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.memberId, member.id), eq(auditEvents.resourceType, resourceType)))
    .orderBy(auditEvents.seq);
  return rows.map((row) => [row.action, row.result]);
}

/** No new row, no new use and no blob: what every failed run must leave. */
async function expectNothingStored(member: Member, uses = 0): Promise<void> {
  expect(await resultCount(member.id)).toBe(0);
  expect(await useCount(member.id)).toBe(uses);
  expect(await storedKeys(t, member.id)).toEqual([]);
}

describe('POST /api/dental-ai/', () => {
  it('answers caries boxes at the pixels of the image, stored under a signed link', async () => {
    const member = await factory.loggedInMember();
    const result = await detect(member);

    expect(result).toMatchObject({ dental_ai: 'caries', image_width: 128, image_height: 96 });
    expect(result.created_at).toBe(t.clock.now().toISOString());
    expect(result.model_name).not.toBe('');
    const boxes = result.detection_selection
      .map((box) => [box.xmin, box.ymin, box.xmax, box.ymax, box.crop_prediction])
      .sort((a, b) => String(a).localeCompare(String(b)));
    expect(boxes).toEqual(
      expectedBoxes.map((box) => [...box]).sort((a, b) => String(a).localeCompare(String(b))),
    );
    for (const box of result.detection_selection) {
      expect(box.confidence).toBeGreaterThan(0.9);
    }

    const image = await fetchLink(t, result.image_url);
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    const stored = await sharp(image.rawPayload).metadata();
    expect([stored.width, stored.height]).toEqual([128, 96]);
    expect(await resultCount(member.id)).toBe(1);
    const keys = await storedKeys(t, member.id);
    expect(keys).toEqual([expect.stringMatching(/\/dental-ai\/[0-9a-f-]+\.png$/)]);
    // The orphan sweep must see the image as referenced.
    expect(await new FilesRepository(t.db).referencedKeys(keys)).toEqual(new Set(keys));
  });

  it('finds the boxes on the upright image of a sideways phone JPEG', async () => {
    const member = await factory.loggedInMember();
    // Stored sideways with EXIF orientation 6: upright, it is makeDrawing’s image again.
    const sideways = await sharp(drawing)
      .rotate(-90)
      .withMetadata({ orientation: 6 })
      .jpeg({ quality: 100, chromaSubsampling: '4:4:4' })
      .toBuffer();
    const result = await detect(member, { image_url: dataUrlOf(sideways, 'image/jpeg') });
    expect([result.image_width, result.image_height]).toEqual([128, 96]);
    expect(result.detection_selection.filter((box) => box.crop_prediction === 'red')).toEqual(
      expect.arrayContaining([expect.objectContaining({ xmin: 16, ymin: 16, xmax: 32, ymax: 32 })]),
    );
    const stored = await sharp((await fetchLink(t, result.image_url)).rawPayload).metadata();
    expect([stored.width, stored.height, stored.orientation]).toEqual([128, 96, undefined]);
  });

  it('accepts an image of exactly 5 MB and refuses one byte more with the exact message', async () => {
    const member = await factory.loggedInMember();
    const base = await makePng();
    await detect(member, { image_url: dataUrlOf(padPng(base, 5 * 1024 * 1024), 'image/png') });

    const over = await post(member, {
      image_url: dataUrlOf(padPng(base, 5 * 1024 * 1024 + 1), 'image/png'),
    });
    expect(over.statusCode).toBe(413);
    expect(over.json()).toMatchObject({ status: 413, detail: imageTooLargeMessage });
    expect(await resultCount(member.id)).toBe(1);
  });

  it.each([
    ['an SVG image', svgImage, 'image/svg+xml'],
    ['an HTML page claimed to be a PNG', htmlPage, 'image/png'],
    ['plain text', Buffer.from('not an image'), 'text/plain'],
  ])('refuses %s with 415 and stores nothing', async (_name, bytes, claimed) => {
    const member = await factory.loggedInMember();
    const res = await post(member, { image_url: dataUrlOf(bytes, claimed) });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({ detail: unsupportedImageMessage });
    await expectNothingStored(member);
  });

  it.each([
    ['dental_ai', { dental_ai: 'plaque' }],
    ['image_kind', { image_kind: 'bitewing' }],
    ['image_url', { image_url: 'https://example.com/x-ray.png' }],
    ['image_url', { image_url: undefined }],
  ])('refuses a bad %s with a field error and stores nothing', async (field, change) => {
    const member = await factory.loggedInMember();
    const res = await post(member, { image_url: dataUrlOf(drawing, 'image/png'), ...change });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ errors: Record<string, string[]> }>().errors).toHaveProperty(field);
    await expectNothingStored(member);
  });

  it('runs the photo model on a colour photo and the X-ray model on an X-ray, and keeps which ran', async () => {
    const member = await factory.loggedInMember();
    const photo = await detect(member);
    expect(photo).toMatchObject({
      image_kind: 'photo',
      image_kind_source: 'pixels',
      model_name: 'caries-photo',
    });
    expect(photo.detection_selection).toHaveLength(expectedBoxes.length);
    const xray = await detect(member, { image_url: dataUrlOf(greyXray, 'image/jpeg') });
    expect(xray).toMatchObject({
      image_kind: 'xray',
      image_kind_source: 'pixels',
      model_name: 'caries',
      detection_selection: [],
    });

    const stored = await t.request('GET', dentalAiPaths.result(photo.id), {
      token: member.tokens.access,
    });
    expect(stored.json()).toMatchObject({ image_kind: 'photo', model_name: 'caries-photo' });
  });

  it('lets the member’s kind on the form win over the pixels', async () => {
    const member = await factory.loggedInMember();
    expect(await detect(member, { image_kind: 'xray' })).toMatchObject({
      image_kind: 'xray',
      image_kind_source: 'member',
      model_name: 'caries',
    });
    expect(
      await detect(member, { image_url: dataUrlOf(greyXray, 'image/jpeg'), image_kind: 'photo' }),
    ).toMatchObject({
      image_kind: 'photo',
      image_kind_source: 'member',
      model_name: 'caries-photo',
    });
  });

  it('answers wisdom teeth on a colour photo with a 422 message, spending no use', async () => {
    const member = await factory.loggedInMember();
    const written = vi.spyOn(t.services.blobs, 'put');
    for (const body of [
      { dental_ai: 'wisdom_teeth', image_url: dataUrlOf(drawing, 'image/png') },
      {
        dental_ai: 'wisdom_teeth',
        image_url: dataUrlOf(greyXray, 'image/jpeg'),
        image_kind: 'photo',
      },
    ]) {
      const res = await post(member, body);
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({
        status: 422,
        detail: dentalAiWrongKindMessage('wisdom_teeth'),
        errors: { image_kind: [dentalAiWrongKindMessage('wisdom_teeth')] },
      });
    }
    // The stored copy is made only once the image is ready for its model: a refusal writes none.
    expect(written).not.toHaveBeenCalled();
    await expectNothingStored(member);
    // Said to be an X-ray, it runs.
    expect(await detect(member, { dental_ai: 'wisdom_teeth', image_kind: 'xray' })).toMatchObject({
      model_name: 'wisdom-teeth',
      image_kind: 'xray',
    });
  });

  it('answers 503 when the detector fails, keeping nothing', async () => {
    const member = await factory.loggedInMember();
    // The model fails while the stored copy is written beside it: the copy is discarded.
    vi.spyOn(t.services.detector, 'run').mockRejectedValueOnce(new Error('session lost'));
    const res = await post(member, { image_url: dataUrlOf(drawing, 'image/png') });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ detail: detectionFailedMessage });
    await expectNothingStored(member);
  });

  it('commits the result, its use and its audit row in one transaction', async () => {
    const member = await factory.loggedInMember();
    const result = await detect(member);
    // xmin is the id of the transaction that inserted a row.
    const transactions = await t.db.execute(sql`
      select xmin::text from dental_ai_results where id = ${result.id}
      union all select xmin::text from dental_ai_uses where user_id = ${member.id}
      union all select xmin::text from audit_events
        where member_id = ${member.id} and resource_id = ${result.id}`);
    const ids = rowsOf<{ xmin: string }>(transactions).map((row) => row.xmin);
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(1);
  });

  it('stores nothing and spends no use when the run’s audit row cannot be written', async () => {
    const member = await factory.loggedInMember();
    // The trail refuses this member's successful rows only: the failure is still recorded.
    await t.db.execute(
      sql.raw(`CREATE OR REPLACE FUNCTION refuse_dental_ai_row() RETURNS trigger LANGUAGE plpgsql
        AS $$ BEGIN RAISE EXCEPTION 'audit row refused'; END $$`),
    );
    await t.db.execute(
      sql.raw(`CREATE TRIGGER refuse_dental_ai_row BEFORE INSERT ON audit_events FOR EACH ROW
        WHEN (NEW.member_id = '${member.id}' AND NEW.result = 'success')
        EXECUTE FUNCTION refuse_dental_ai_row()`),
    );
    try {
      const res = await post(member, { image_url: dataUrlOf(drawing, 'image/png') });
      expect(res.statusCode).toBe(500);
      await expectNothingStored(member);
      expect(await auditOf(member, 'dental_ai_result')).toEqual([['create', 'failure']]);
    } finally {
      await t.db.execute(sql.raw('DROP TRIGGER refuse_dental_ai_row ON audit_events'));
    }
  });

  it('refuses a run past the plan’s yearly uses with 422 naming the limit and the next plan', async () => {
    const member = await factory.loggedInMember();
    const allowed = plans.Silver.dentalAiUsesPerYear;
    await spendUses(member.id, allowed);
    const prepareSpy = vi.spyOn(t.services.detector, 'prepare');
    const res = await post(member, { image_url: dataUrlOf(drawing, 'image/png') });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      detail: `You have used all ${String(allowed)} Dental AI diagnoses of your Silver plan for this membership year. The Gold plan raises it to ${String(plans.Gold.dentalAiUsesPerYear)} a year.`,
    });
    // Refused before the model ran.
    expect(prepareSpy).not.toHaveBeenCalled();
    await expectNothingStored(member, allowed);
  });

  it('lets concurrent runs together stay within the plan’s uses', async () => {
    const member = await factory.loggedInMember();
    const allowed = plans.Silver.dentalAiUsesPerYear;
    await spendUses(member.id, allowed - 1);
    const results = await Promise.all(
      [1, 2].map(() => post(member, { image_url: dataUrlOf(drawing, 'image/png') })),
    );
    expect(results.map((res) => res.statusCode).sort()).toEqual([201, 422]);
    expect(await resultCount(member.id)).toBe(1);
    expect(await useCount(member.id)).toBe(allowed);
    // The loser's image, written before its reservation failed, is removed again.
    expect(await storedKeys(t, member.id)).toHaveLength(1);
  });

  it('refuses a request without a token', async () => {
    const res = await t.request('POST', dentalAiPaths.root, {
      body: { image_url: dataUrlOf(drawing, 'image/png') },
    });
    expect(res.statusCode).toBe(401);
  });
});

describe('POST /api/dental-ai/photo/ (a stored photo or X-ray)', () => {
  /** The drawing stored as a colour photo of `member`, as an upload to the photo list is. */
  const storedPhoto = (member: Member) =>
    t.services.oralPhotos.create(
      member.id,
      newOralPhotoRequest.parse({
        shoot_date: '2026-11-20',
        photo_type: 'Photo',
        image_link: dataUrlOf(drawing, 'image/png'),
      }),
    );
  const postPhoto = (member: Member, body: unknown) =>
    t.request('POST', dentalAiPaths.photo, { token: member.tokens.access, body });
  const resultsOf = async (member: Member, photoId: string) => {
    const res = await t.request('GET', `${dentalAiPaths.results}?oral_photo_id=${photoId}`, {
      token: member.tokens.access,
    });
    expect(res.statusCode, res.body).toBe(200);
    return dentalAiResultList.parse(res.json());
  };

  it('runs on the stored image with no upload, as one use, and links result and photo both ways', async () => {
    const member = await factory.loggedInMember();
    const photo = await storedPhoto(member);
    await detect(member); // An upload's result, not of the photo.
    const res = await postPhoto(member, { oral_photo_id: photo.id });
    expect(res.statusCode, res.body).toBe(201);
    const result = dentalAiResult.parse(res.json());

    // The photo's type chose the photo model; the boxes are the drawing's.
    expect(result).toMatchObject({
      dental_ai: 'caries',
      oral_photo_id: photo.id,
      image_kind: 'photo',
      image_kind_source: 'member',
      model_name: 'caries-photo',
      image_width: 128,
      image_height: 96,
    });
    expect(result.detection_selection).toHaveLength(expectedBoxes.length);
    expect((await fetchLink(t, result.image_url)).statusCode).toBe(200);
    expect(await useCount(member.id)).toBe(2);
    expect((await resultsOf(member, photo.id)).map((one) => one.id)).toEqual([result.id]);

    const audit = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.memberId, member.id), eq(auditEvents.resourceId, result.id)));
    // The run, then the image fetched above through its signed link.
    expect(audit.map((row) => [row.action, row.resourceType, row.result])).toEqual([
      ['create', 'dental_ai_result', 'success'],
      ['download', 'dental_ai_result', 'success'],
    ]);
    expect(await auditOf(member, 'dental_ai_result_list')).toEqual([['read', 'success']]);
  });

  it('keeps the result, without the link, when the photo is deleted', async () => {
    const member = await factory.loggedInMember();
    const photo = await storedPhoto(member);
    const result = dentalAiResult.parse(
      (await postPhoto(member, { oral_photo_id: photo.id })).json(),
    );
    const deleted = await t.request('DELETE', oralPhotoPaths.one(photo.id), {
      token: member.tokens.access,
    });
    expect(deleted.statusCode).toBe(204);
    const again = await t.request('GET', dentalAiPaths.result(result.id), {
      token: member.tokens.access,
    });
    expect(dentalAiResult.parse(again.json())).toMatchObject({
      id: result.id,
      oral_photo_id: null,
    });
    expect((await fetchLink(t, dentalAiResult.parse(again.json()).image_url)).statusCode).toBe(200);
  });

  it('hides another member’s photo (404) and its results, storing and spending nothing', async () => {
    const owner = await factory.loggedInMember();
    const other = await factory.loggedInMember();
    const photo = await storedPhoto(owner);
    await postPhoto(owner, { oral_photo_id: photo.id });
    const prepareSpy = vi.spyOn(t.services.detector, 'prepare');

    const res = await postPhoto(other, { oral_photo_id: photo.id });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.json()).toMatchObject({ status: 404, detail: dentalAiPhotoNotFoundMessage });
    expect(prepareSpy).not.toHaveBeenCalled();
    await expectNothingStored(other);
    expect(await resultsOf(other, photo.id)).toEqual([]);

    expect(await auditOf(other, 'dental_ai_result')).toEqual([['create', 'failure']]);
  });

  it('counts against the plan like an upload: past the limit, 422 before the model runs', async () => {
    const member = await factory.loggedInMember();
    const photo = await storedPhoto(member);
    const allowed = plans.Silver.dentalAiUsesPerYear;
    await spendUses(member.id, allowed);
    const keys = await storedKeys(t, member.id);
    const prepareSpy = vi.spyOn(t.services.detector, 'prepare');
    const res = await postPhoto(member, { oral_photo_id: photo.id });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      detail: `You have used all ${String(allowed)} Dental AI diagnoses of your Silver plan for this membership year. The Gold plan raises it to ${String(plans.Gold.dentalAiUsesPerYear)} a year.`,
    });
    expect(prepareSpy).not.toHaveBeenCalled();
    expect(await resultCount(member.id)).toBe(0);
    expect(await useCount(member.id)).toBe(allowed);
    expect(await storedKeys(t, member.id)).toEqual(keys);
  });

  it('refuses a malformed id or type with a problem, and a request without a token', async () => {
    const member = await factory.loggedInMember();
    const photo = await storedPhoto(member);
    const bad = await postPhoto(member, { oral_photo_id: 'nope' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ status: 400 });
    const badType = await postPhoto(member, { oral_photo_id: photo.id, dental_ai: 'gums' });
    expect(badType.statusCode).toBe(400);
    expect(await resultCount(member.id)).toBe(0);
    expect(await useCount(member.id)).toBe(0);
    const anonymous = await t.request('POST', dentalAiPaths.photo, {
      body: { oral_photo_id: photo.id },
    });
    expect(anonymous.statusCode).toBe(401);
    const badList = await t.request('GET', `${dentalAiPaths.results}?oral_photo_id=nope`, {
      token: member.tokens.access,
    });
    expect(badList.statusCode).toBe(400);
  });
});

describe('GET /api/dental-ai/{id}/', () => {
  it('answers the stored result to its owner', async () => {
    const member = await factory.loggedInMember();
    const created = await detect(member);
    const res = await t.request('GET', dentalAiPaths.result(created.id), {
      token: member.tokens.access,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(created);
  });

  it('hides another member’s result (404)', async () => {
    const [ann, bob] = await Promise.all([factory.loggedInMember(), factory.loggedInMember()]);
    const created = await detect(ann);
    const res = await t.request('GET', dentalAiPaths.result(created.id), {
      token: bob.tokens.access,
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ detail: dentalAiResultNotFoundMessage });
  });

  it('refuses a request without a token', async () => {
    const member = await factory.loggedInMember();
    const created = await detect(member);
    expect((await t.request('GET', dentalAiPaths.result(created.id))).statusCode).toBe(401);
  });
});

describe('GET /api/dental-ai/results/', () => {
  it('lists the member’s own results newest first, paged with a next link', async () => {
    const [ann, bob] = await Promise.all([factory.loggedInMember(), factory.loggedInMember()]);
    const first = await detect(ann);
    t.clock.advance(60_000);
    const second = await detect(ann);
    await detect(bob);
    const token = ann.tokens.access;

    const all = await t.request('GET', dentalAiPaths.results, { token });
    expect(all.statusCode).toBe(200);
    expect(dentalAiResultList.parse(all.json()).map((result) => result.id)).toEqual([
      second.id,
      first.id,
    ]);

    const page = await t.request('GET', `${dentalAiPaths.results}?limit=1`, { token });
    expect(dentalAiResultList.parse(page.json()).map((result) => result.id)).toEqual([second.id]);
    expect(page.headers.link).toBe(`<${dentalAiPaths.results}?limit=1&offset=1>; rel="next"`);
  });

  it('refuses a bad limit with a problem, and a request without a token', async () => {
    const member = await factory.loggedInMember();
    const res = await t.request('GET', `${dentalAiPaths.results}?limit=0`, {
      token: member.tokens.access,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ detail: string }>().detail).toContain('limit');
    expect((await t.request('GET', dentalAiPaths.results)).statusCode).toBe(401);
  });
});

describe('DELETE /api/dental-ai/{id}/', () => {
  it('deletes the result and its image, and the use stays spent', async () => {
    const member = await factory.loggedInMember();
    const token = member.tokens.access;
    const created = await detect(member);
    expect(await storedKeys(t, member.id)).toHaveLength(1);

    const res = await t.request('DELETE', dentalAiPaths.result(created.id), { token });
    expect(res.statusCode).toBe(204);
    expect(await resultCount(member.id)).toBe(0);
    expect(await storedKeys(t, member.id)).toEqual([]);
    expect((await fetchLink(t, created.image_url)).statusCode).toBe(404);
    expect((await t.request('GET', dentalAiPaths.result(created.id), { token })).statusCode).toBe(
      404,
    );
    const status = await t.request('GET', dentalAiPaths.root, { token });
    expect(dentalAiStatus.parse(status.json()).uses.used).toBe(1);
    // A second delete finds nothing.
    expect(
      (await t.request('DELETE', dentalAiPaths.result(created.id), { token })).statusCode,
    ).toBe(404);
  });

  it('leaves another member’s result alone (404)', async () => {
    const [ann, bob] = await Promise.all([factory.loggedInMember(), factory.loggedInMember()]);
    const created = await detect(ann);
    const res = await t.request('DELETE', dentalAiPaths.result(created.id), {
      token: bob.tokens.access,
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ detail: dentalAiResultNotFoundMessage });
    expect(await resultCount(ann.id)).toBe(1);
    expect(await storedKeys(t, ann.id)).toHaveLength(1);
  });

  it('refuses a malformed id with a problem, and a request without a token', async () => {
    const member = await factory.loggedInMember();
    const created = await detect(member);
    const bad = await t.request('DELETE', `${dentalAiPaths.root}not-an-id/`, {
      token: member.tokens.access,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ detail: string }>().detail).toContain('This is not a result id.');
    expect((await t.request('DELETE', dentalAiPaths.result(created.id))).statusCode).toBe(401);
    expect(await resultCount(member.id)).toBe(1);
  });
});

describe('GET /api/dental-ai/', () => {
  it('answers which types run here and the uses of this membership year', async () => {
    const member = await factory.loggedInMember();
    await detect(member);
    const res = await t.request('GET', dentalAiPaths.root, { token: member.tokens.access });
    expect(res.statusCode).toBe(200);
    expect(dentalAiStatus.parse(res.json())).toEqual({
      types: [
        { dental_ai: 'caries', available: true, image_kinds: ['photo', 'xray'] },
        { dental_ai: 'wisdom_teeth', available: true, image_kinds: ['xray'] },
      ],
      uses: { plan: 'Silver', used: 1, allowed: plans.Silver.dentalAiUsesPerYear },
    });
  });

  it('refuses a request without a token', async () => {
    expect((await t.request('GET', dentalAiPaths.root)).statusCode).toBe(401);
  });
});

describe('on a server with an X-ray caries model only', () => {
  let xrayOnly: TestApp;

  beforeAll(async () => {
    xrayOnly = await buildTestApp({
      env: {
        DENTAL_AI_MODEL_CARIES: path.join(modelDir, 'caries.onnx'),
        DENTAL_AI_SHIPPED_MODELS: 'off',
      },
    });
  });
  afterAll(async () => {
    await xrayOnly.close();
  });

  it('answers 503 for a type without a model, or a kind without one, spending no use', async () => {
    const member = await factories(xrayOnly).loggedInMember();
    for (const [body, detail] of [
      [{ dental_ai: 'wisdom_teeth' }, dentalAiUnavailableMessage('wisdom_teeth')],
      [{ dental_ai: 'caries' }, dentalAiKindUnavailableMessage('caries', 'photo')],
    ] as const) {
      const res = await xrayOnly.request('POST', dentalAiPaths.root, {
        token: member.tokens.access,
        body: { ...body, image_url: dataUrlOf(drawing, 'image/png') },
      });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ status: 503, detail });
    }
    const [row] = await xrayOnly.db
      .select({ results: count() })
      .from(dentalAiResults)
      .where(eq(dentalAiResults.userId, member.id));
    expect(row?.results).toBe(0);
    const status = await xrayOnly.request('GET', dentalAiPaths.root, {
      token: member.tokens.access,
    });
    expect(dentalAiStatus.parse(status.json()).types).toEqual([
      { dental_ai: 'caries', available: true, image_kinds: ['xray'] },
      { dental_ai: 'wisdom_teeth', available: false, image_kinds: [] },
    ]);
  });
});

describe('with inference on a KServe v2 / Triton server (DENTAL_AI_ENDPOINT)', () => {
  let server: InferenceTestServer;
  let remote: TestApp;

  beforeAll(async () => {
    server = await startInferenceTestServer(modelDir);
    remote = await buildTestApp({
      env: {
        DENTAL_AI_MODEL_CARIES_PHOTO: path.join(modelDir, 'caries-photo.onnx'),
        DENTAL_AI_SHIPPED_MODELS: 'off',
        DENTAL_AI_ENDPOINT: server.endpoint,
      },
    });
  });
  afterAll(async () => {
    await remote.close();
    await server.close();
  });

  it('answers the same boxes, computed by the server', async () => {
    const member = await factories(remote).loggedInMember();
    const res = await remote.request('POST', dentalAiPaths.root, {
      token: member.tokens.access,
      body: { image_url: dataUrlOf(drawing, 'image/png') },
    });
    expect(res.statusCode, res.body).toBe(201);
    const boxes = dentalAiResult
      .parse(res.json())
      .detection_selection.map((box) => [
        box.xmin,
        box.ymin,
        box.xmax,
        box.ymax,
        box.crop_prediction,
      ]);
    expect(boxes).toEqual(expect.arrayContaining(expectedBoxes.map((box) => [...box])));
    expect(boxes).toHaveLength(expectedBoxes.length);
    expect(server.requests).toEqual(['caries-photo']);
  });

  it('answers 503 and keeps nothing when the server is down', async () => {
    const member = await factories(remote).loggedInMember();
    await server.close();
    const res = await remote.request('POST', dentalAiPaths.root, {
      token: member.tokens.access,
      body: { image_url: dataUrlOf(drawing, 'image/png') },
    });
    server = await startInferenceTestServer(modelDir);
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ detail: detectionFailedMessage });
    const [row] = await remote.db
      .select({ results: count() })
      .from(dentalAiResults)
      .where(eq(dentalAiResults.userId, member.id));
    expect(row?.results).toBe(0);
    expect(await storedKeys(remote, member.id)).toEqual([]);
  });
});

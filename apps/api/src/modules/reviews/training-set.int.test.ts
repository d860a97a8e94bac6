import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  clinicReviewPaths,
  reviewPaths,
  trainingConsent,
  type ReviewAnswer,
} from '@dental/contracts';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories } from '#api-test/factories';
import { staffFactories } from '#api-test/staff';
import { ReviewRepository } from './reviews.repository';
import { storedImageSize } from './stored-image-size';
import { writeTrainingSet, type Manifest } from './training-set';

let t: TestApp;
let factory: ReturnType<typeof factories>;
let staff: Awaited<ReturnType<ReturnType<typeof staffFactories>['loggedInStaff']>>;
let outDir: string;

beforeAll(async () => {
  t = await buildTestApp();
  factory = factories(t);
  staff = await staffFactories(t).loggedInStaff('practitioner');
  outDir = await mkdtemp(path.join(os.tmpdir(), 'dental-review-set-'));
});
afterAll(async () => {
  await t.close();
  await rm(outDir, { recursive: true, force: true });
});

type Member = Awaited<ReturnType<typeof factory.loggedInMember>>;
const as = (who: { tokens: { access: string } }, body?: unknown) => ({
  token: who.tokens.access,
  body,
});

/** A member's X-ray (64 × 48), reviewed and answered with one box of each verdict kind. */
async function answeredReview(member: Member): Promise<string> {
  const photo = await factory.oralPhoto(member);
  const res = await t.request(
    'POST',
    reviewPaths.root,
    as(member, { photos: [photo.id], question: 'What is this?' }),
  );
  const { id } = res.json<{ id: string }>();
  const answer: ReviewAnswer = {
    report: 'An early cavity.',
    findings: [
      { box: [8, 12, 24, 36], label: 'Cavity', verdict: 'added', ai_box: null, photo: photo.id },
      { box: [30, 10, 40, 20], label: 'Stain', verdict: 'added', ai_box: null, photo: photo.id },
    ],
  };
  const put = await t.request('PUT', clinicReviewPaths.one(id), as(staff, answer));
  expect(put.statusCode, put.body).toBe(200);
  return id;
}

async function consent(member: Member, method: 'GET' | 'PUT' | 'DELETE') {
  const res = await t.request(method, reviewPaths.consent, as(member));
  return res;
}

async function writeSet(name: string): Promise<Manifest> {
  const folder = path.join(outDir, name);
  return writeTrainingSet(
    new ReviewRepository(t.db),
    t.services.blobs,
    storedImageSize(t.services.blobs),
    { xray: ['Cavity', 'Fillings', 'Impacted Tooth', 'Implant'], photo: ['Cavity', 'Normal'] },
    folder,
    t.clock.now(),
  );
}

describe('consent to improve the models', () => {
  it('is off by default, given once with its time, and withdrawn at once', async () => {
    const alice = await factory.loggedInMember();
    expect(trainingConsent.parse((await consent(alice, 'GET')).json())).toEqual({
      granted_at: null,
    });
    const given = trainingConsent.parse((await consent(alice, 'PUT')).json());
    expect(given.granted_at).toBe(t.clock.now().toISOString());
    t.clock.advance(60_000);
    expect((await consent(alice, 'PUT')).json()).toEqual(given);
    expect((await consent(alice, 'DELETE')).statusCode).toBe(204);
    expect((await consent(alice, 'GET')).json()).toEqual({ granted_at: null });
  });
});

describe('the review data set', () => {
  it('holds exactly the answered reviews of members who consent now', async () => {
    const consenting = await factory.loggedInMember();
    const silent = await factory.loggedInMember();
    const withdrawn = await factory.loggedInMember();
    await consent(consenting, 'PUT');
    await consent(withdrawn, 'PUT');
    const kept = await answeredReview(consenting);
    await answeredReview(silent);
    await answeredReview(withdrawn);
    await consent(withdrawn, 'DELETE');

    const manifest = await writeSet('first');
    expect(manifest.images.map((image) => image.review_id)).toEqual([kept]);
    const [image] = manifest.images;
    expect(image).toMatchObject({
      kind: 'xray',
      consent_granted_at: expect.any(String) as string,
      boxes: 1,
      unknown_labels: ['Stain'],
    });
    const folder = path.join(outDir, 'first');
    expect(await readFile(path.join(folder, image?.labels ?? ''), 'utf8')).toBe(
      '0 0.25 0.5 0.25 0.5\n',
    );
    expect(await readdir(path.join(folder, 'xray', 'images'))).toEqual([`${kept}-1.png`]);
    const written = JSON.parse(
      await readFile(path.join(folder, 'manifest.json'), 'utf8'),
    ) as Manifest;
    expect(written.images).toEqual(manifest.images);
  });

  it('leaves out a review still waiting', async () => {
    const alice = await factory.loggedInMember();
    await consent(alice, 'PUT');
    const photo = await factory.oralPhoto(alice);
    const res = await t.request(
      'POST',
      reviewPaths.root,
      as(alice, { photos: [photo.id], question: 'Still waiting?' }),
    );
    const { id } = res.json<{ id: string }>();
    const manifest = await writeSet('second');
    expect(manifest.images.map((image) => image.review_id)).not.toContain(id);
  });
});

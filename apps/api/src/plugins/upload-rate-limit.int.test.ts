import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oralPhotoPaths } from '@dental/contracts';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories } from '#api-test/factories';
import { dataUrlOf, makePng } from '#api-test/fixtures/upload-test-files';
import { storedKeys } from '#api-test/support/files';
import { tooManyUploadsMessage } from './upload-rate-limit';

let t: TestApp;
let factory: ReturnType<typeof factories>;
let image: string;

beforeAll(async () => {
  t = await buildTestApp({ env: { UPLOADS_PER_MINUTE: '2' } });
  factory = factories(t);
  image = dataUrlOf(await makePng(), 'image/png');
});
afterAll(() => t.close());

const upload = (token: string) =>
  t.request('POST', oralPhotoPaths.list, {
    token,
    body: { shoot_date: '2026-01-01', photo_type: 'Photo', image_link: image },
  });

describe('uploads per member per minute', () => {
  it('answers 429 with the time to wait past the limit, per member, and lets uploads in again after the minute', async () => {
    const ann = await factory.loggedInMember();
    const bob = await factory.loggedInMember();
    expect((await upload(ann.tokens.access)).statusCode).toBe(201);
    expect((await upload(ann.tokens.access)).statusCode).toBe(201);
    const refused = await upload(ann.tokens.access);
    expect(refused.statusCode).toBe(429);
    const wait = Number(refused.headers['retry-after']);
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);
    expect(refused.json()).toMatchObject({ status: 429, detail: tooManyUploadsMessage(wait) });
    // Nothing was stored by the refused upload.
    expect(await storedKeys(t, ann.id)).toHaveLength(4); // two photos, each with its thumbnail
    // Another member has a minute of their own.
    expect((await upload(bob.tokens.access)).statusCode).toBe(201);
    t.clock.advance(60_000);
    expect((await upload(ann.tokens.access)).statusCode).toBe(201);
  });
});

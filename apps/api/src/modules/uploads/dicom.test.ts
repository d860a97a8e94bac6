import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import {
  dicomDataUrl,
  jpeg2000,
  jpegBaseline,
  implicitLittleEndian,
  makeDicom,
  plantedPatient,
  rleLossless,
  type DicomSpec,
} from '#api-test/fixtures/dicom-test-files';
import { unreadableDicomMessage, dicomWithoutImageMessage } from './dicom';
import { UploadAcceptance, type AcceptedPhoto } from './upload-acceptance';

const uploads = new UploadAcceptance({ maxImagePixels: 1_000_000 });
// The first file starts a worker thread, which reads its TypeScript through tsx: seconds on a busy
// machine, more than a test's time limit.
beforeAll(async () => {
  await uploads.acceptPhotoOrDicom(dicomDataUrl(makeDicom({ width: 1, height: 1, values: [0] })));
}, 30_000);
afterAll(() => uploads.close());

/** The rendered PNG's pixels, one grey value each (or RGB triples). */
async function renderedPixels(
  photo: AcceptedPhoto,
): Promise<{ values: number[]; channels: number }> {
  const { channels } = await sharp(photo.bytes).metadata();
  // Raw output is sRGB unless told: a one-channel PNG is read as the grey values it holds.
  const image = channels === 1 ? sharp(photo.bytes).toColourspace('b-w') : sharp(photo.bytes);
  const { data } = await image.raw().toBuffer({ resolveWithObject: true });
  return { values: [...data], channels };
}

async function render(spec: DicomSpec): Promise<{ values: number[]; photo: AcceptedPhoto }> {
  const photo = await uploads.acceptPhotoOrDicom(dicomDataUrl(makeDicom(spec)));
  expect(photo.contentType).toBe('image/png');
  expect(photo.width).toBe(spec.width);
  expect(photo.height).toBe(spec.height);
  const { values, channels } = await renderedPixels(photo);
  expect(channels).toBe(spec.photometric === 'RGB' ? 3 : 1);
  return { values, photo };
}

/** DICOM PS3.3 C.11.2.1.2.1, the linear VOI function, to 8 bits. */
function voi(x: number, center: number, width: number): number {
  if (x <= center - 0.5 - (width - 1) / 2) return 0;
  if (x > center - 0.5 + (width - 1) / 2) return 255;
  return Math.round(((x - (center - 0.5)) / (width - 1) + 0.5) * 255);
}

describe('DICOM rendering', () => {
  it('renders 8-bit MONOCHROME2 by its window, the first of several values', async () => {
    const values = [0, 50, 100, 128, 150, 200, 255, 90];
    const { values: out } = await render({
      width: 4,
      height: 2,
      values,
      bitsAllocated: 8,
      windowCenter: [100, 9999],
      windowWidth: [101, 1],
    });
    expect(out).toEqual(values.map((x) => voi(x, 100, 101)));
    // Below the window black, above it white, its centre mid-grey.
    expect(out.slice(0, 3)).toEqual([0, 1, 129]);
    expect(out[5]).toBe(255);
  });

  it('inverts MONOCHROME1: the lowest value is white', async () => {
    const values = [0, 64, 128, 255];
    const { values: out } = await render({
      width: 2,
      height: 2,
      values,
      bitsAllocated: 8,
      photometric: 'MONOCHROME1',
    });
    // Without a window, the pixel range: 0 black and 255 white before the inversion.
    expect(out).toEqual(values.map((x) => 255 - voi(x, 128, 256)));
    expect(out[0]).toBe(255);
    expect(out[3]).toBe(0);
  });

  it('renders 12 bits stored in 16 with rescale slope and intercept', async () => {
    // 12-bit unsigned detector values; the high bits hold noise a reader must mask away.
    const values = [0, 1024, 2048, 4095, 0xf000 | 2048, 3000];
    const { values: out } = await render({
      width: 3,
      height: 2,
      values,
      bitsAllocated: 16,
      bitsStored: 12,
      rescaleSlope: 2,
      rescaleIntercept: -1000,
      windowCenter: 3096,
      windowWidth: 8192,
    });
    expect(out).toEqual(values.map((x) => voi((x & 0xfff) * 2 - 1000, 3096, 8192)));
    expect(out[4]).toBe(out[2]);
  });

  it('renders 16-bit signed MONOCHROME2 by its pixel range when there is no window', async () => {
    const values = [-32768, -1000, 0, 1000, 32767, 12];
    const { values: out } = await render({
      width: 3,
      height: 2,
      values,
      bitsAllocated: 16,
      signed: true,
    });
    expect(out).toEqual(values.map((x) => voi(x, 0, 65536)));
    expect(out[0]).toBe(0);
    expect(out[4]).toBe(255);
    expect(out.slice(1, 3)).toEqual([...out.slice(1, 3)].sort((a, b) => a - b));
  });

  it('renders 12-bit signed MONOCHROME1 with its window', async () => {
    // −2048…2047 in 12 bits, the sign bit extended from bit 11.
    const values = [-2048, -100, 0, 100, 2047, 0];
    const { values: out } = await render({
      width: 3,
      height: 2,
      values,
      bitsAllocated: 16,
      bitsStored: 12,
      signed: true,
      photometric: 'MONOCHROME1',
      windowCenter: 0,
      windowWidth: 400,
    });
    expect(out).toEqual(values.map((x) => 255 - voi(x, 0, 400)));
    expect(out[0]).toBe(255);
    expect(out[4]).toBe(0);
  });

  it('reads implicit VR little endian the same as explicit', async () => {
    const spec: DicomSpec = { width: 2, height: 2, values: [0, 300, 600, 900], bitsStored: 10 };
    const explicit = await render(spec);
    const implicit = await render({ ...spec, transferSyntax: implicitLittleEndian });
    expect(implicit.values).toEqual(explicit.values);
  });

  it('keeps RGB colours as they are', async () => {
    const values = [255, 0, 0, 0, 255, 0, 0, 0, 255, 10, 20, 30];
    const { values: out } = await render({
      width: 2,
      height: 2,
      values,
      bitsAllocated: 8,
      photometric: 'RGB',
    });
    expect(out).toEqual(values);
  });

  it('decodes JPEG baseline pixel data with sharp and windows it', async () => {
    const source = Buffer.from(Array.from({ length: 64 }, (_, i) => (i % 8) * 32));
    const jpeg = await sharp(source, { raw: { width: 8, height: 8, channels: 1 } })
      .jpeg({ quality: 100 })
      .toBuffer();
    const { values: out } = await render({
      width: 8,
      height: 8,
      values: [],
      bitsAllocated: 8,
      transferSyntax: jpegBaseline,
      fragments: [jpeg],
      photometric: 'MONOCHROME1',
    });
    // Lossy, but close: dark columns are light after the inversion.
    expect(out[0]).toBeGreaterThanOrEqual(247);
    expect(out[7]).toBeLessThanOrEqual(8);
  });

  it('takes the study date and modality, and puts no attribute into the PNG', async () => {
    const { photo } = await render({
      width: 2,
      height: 2,
      values: [1, 2, 3, 4],
      studyDate: '20240229',
      modality: 'PX',
    });
    expect(photo.dicom).toMatchObject({ studyDate: '2024-02-29', photoType: 'X-ray' });
    const text = photo.bytes.toString('latin1');
    for (const planted of Object.values(plantedPatient)) {
      expect(text).not.toContain(planted.split('^')[0]);
    }
    expect((await sharp(photo.bytes).metadata()).exif).toBeUndefined();
  });

  it('ignores a study date that is no date, and maps light photographs to Photo', async () => {
    const { photo } = await render({
      width: 2,
      height: 2,
      values: [1, 2, 3, 4],
      studyDate: '20230231',
      modality: 'XC',
    });
    expect(photo.dicom).toMatchObject({ studyDate: undefined, photoType: 'Photo' });
  });

  it.each([
    [jpeg2000, 'JPEG 2000 (Lossless Only)'],
    [rleLossless, 'RLE Lossless'],
  ])('refuses transfer syntax %s with a 415 naming it', async (syntax, name) => {
    const file = makeDicom({
      width: 2,
      height: 2,
      values: [],
      transferSyntax: syntax,
      fragments: [new Uint8Array([1, 2, 3, 4])],
    });
    const refusal = uploads.acceptPhotoOrDicom(dicomDataUrl(file));
    await expect(refusal).rejects.toMatchObject({ status: 415 });
    await expect(refusal).rejects.toThrow(`${name} (transfer syntax ${syntax})`);
  });

  it('refuses a file without an image, a damaged file and one over the pixel limit', async () => {
    await expect(
      uploads.acceptPhotoOrDicom(
        dicomDataUrl(makeDicom({ width: 2, height: 2, values: [], withoutPixels: true })),
      ),
    ).rejects.toMatchObject({ status: 415, detail: dicomWithoutImageMessage });
    const cut = makeDicom({ width: 4, height: 4, values: Array<number>(16).fill(7) });
    await expect(
      uploads.acceptPhotoOrDicom(dicomDataUrl(cut.subarray(0, cut.length - 8))),
    ).rejects.toMatchObject({ status: 415 });
    const huge = makeDicom({ width: 2000, height: 501, values: [], bitsAllocated: 8 });
    await expect(uploads.acceptPhotoOrDicom(dicomDataUrl(huge))).rejects.toMatchObject({
      status: 413,
    });
    expect(unreadableDicomMessage).toMatch(/could not be read/);
  });
});

import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { expect } from './fixtures';

/** A 480×320 HEIC (HEVC) photo made with libheif's heif-enc from a drawn image
 *  (e2e/fixtures/README.md): warm white, a red square at 40–200 px, a blue bar lower right. */
const heicPath = path.join(import.meta.dirname, '..', 'fixtures', 'red-square.heic');

/**
 * A 12 MB, 4000×3000 camera JPEG taken upright: its pixels lie sideways with EXIF orientation 6,
 * as phones write them, and it carries a camera make and a GPS position. Upright it is 3000×4000
 * with a red block in its top-left corner. Noise keeps it large, as sensor detail does.
 */
export async function cameraJpeg(): Promise<Buffer> {
  const width = 3000;
  const height = 4000;
  const pixels = randomBytes(width * height * 3);
  for (let y = 0; y < 800; y += 1) {
    for (let x = 0; x < 800; x += 1) pixels.set([230, 20, 20], (y * width + x) * 3);
  }
  const jpeg = await sharp(pixels, { raw: { width, height, channels: 3 } })
    .rotate(-90)
    .jpeg({ quality: 97 })
    .withMetadata({ orientation: 6 })
    .withExifMerge({
      IFD0: { Make: 'PhoneCam' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1' },
    })
    .toBuffer();
  expect(jpeg.length).toBeGreaterThan(12_000_000);
  return jpeg;
}

/** The HEIC fixture as an iPhone hands it to a file input. */
export async function heicPhoto() {
  return { name: 'IMG_0002.HEIC', mimeType: 'image/heic', buffer: await readFile(heicPath) };
}

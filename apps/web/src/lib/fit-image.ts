import { imageMaxBytes, tooManyPixelsMessage, unreadableImageMessage } from '@dental/contracts';
import type { HeicAnswer, HeicRequest } from './heic-worker';

/** The longest side, in pixels, of an image the browser writes anew
 *  (docs/decisions/phone-photos.md). */
export const fittedLongSide = 2560;

/** The most pixels a HEIC file may declare: twice a 48 MP phone camera's. */
const heicMaxPixels = 100_000_000;

/** How long one HEIC file may take to decode before its worker is ended. */
const heicDecodeMs = 60_000;

/** The types a browser may name a HEIC or HEIF photo by; the bytes decide all the same. */
export const heicTypes = ['image/heic', 'image/heif', 'image/heic-sequence', 'image/heif-sequence'];

/** The ISO base media brands of HEVC-coded HEIF images (ISO/IEC 23008-12). */
const hevcBrands = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'hevm', 'hevs']);

/** Whether the file is a HEIC photo: its type says so, or its `ftyp` box names an HEVC brand
 *  (browsers on some systems give a HEIC file no type at all). */
export async function isHeic(file: Blob): Promise<boolean> {
  if (heicTypes.includes(file.type)) return true;
  const head = new Uint8Array(await file.slice(0, 64).arrayBuffer());
  const text = new TextDecoder('latin1').decode(head);
  if (head.length < 16 || text.slice(4, 8) !== 'ftyp') return false;
  // The major brand at 8, a version at 12, then the compatible brands to the box's end.
  const boxEnd = Math.min(head.length, new DataView(head.buffer).getUint32(0));
  for (let at = 8; at + 4 <= boxEnd; at += 4) {
    if (at !== 12 && hevcBrands.has(text.slice(at, at + 4))) return true;
  }
  return false;
}

/** Decodes a HEIC file in a worker of its own, loaded only now: libheif is about 2 MB. */
function decodeHeic(bytes: ArrayBuffer): Promise<HeicAnswer> {
  const worker = new Worker(new URL('./heic-worker.ts', import.meta.url), { type: 'module' });
  return new Promise((resolve) => {
    const finish = (answer: HeicAnswer) => {
      clearTimeout(timer);
      worker.terminate();
      resolve(answer);
    };
    const timer = setTimeout(() => {
      finish({ error: 'unreadable' });
    }, heicDecodeMs);
    worker.addEventListener('message', (event: MessageEvent<HeicAnswer>) => {
      finish(event.data);
    });
    // The worker failed to load or ran out of memory on a hostile file.
    worker.addEventListener('error', () => {
      finish({ error: 'unreadable' });
    });
    const request: HeicRequest = { bytes, maxPixels: heicMaxPixels };
    worker.postMessage(request, [bytes]);
  });
}

/** The image upright, as the browser can draw it, or why it cannot be. */
async function decode(file: Blob, heic: boolean): Promise<ImageBitmap | { error: string }> {
  if (heic) {
    const answer = await decodeHeic(await file.arrayBuffer());
    if ('error' in answer) {
      return {
        error:
          answer.error === 'too-many-pixels'
            ? tooManyPixelsMessage(heicMaxPixels)
            : unreadableImageMessage,
      };
    }
    return createImageBitmap(new ImageData(answer.pixels, answer.width, answer.height));
  }
  try {
    // 'from-image' applies the EXIF orientation, so the pixels drawn are the way up it is seen.
    return await createImageBitmap(file, { imageOrientation: 'from-image' });
  } catch {
    return { error: unreadableImageMessage };
  }
}

function toJpeg(canvas: HTMLCanvasElement, quality: number): Promise<Blob | null> {
  return new Promise((resolve) => {
    canvas.toBlob(resolve, 'image/jpeg', quality);
  });
}

/** Lower qualities are tried only when a busy image (fine texture, noise) is still over 5 MB. */
const jpegQualities = [0.9, 0.8, 0.7];

export type FittedImage = { image: Blob; note: string } | { error: string };

const MB = 1024 * 1024;

/**
 * A phone photo written anew in the browser as a JPEG that fits the upload limit: upright, its
 * long side at most 2,560 px, and with no metadata at all (a canvas keeps none, so no location),
 * with a line telling the member what was done (docs/product/records.md#uploads). For a HEIC
 * file, or any image over 5 MB.
 */
export async function fitImage(file: Blob, heic: boolean): Promise<FittedImage> {
  const bitmap = await decode(file, heic);
  if ('error' in bitmap) return bitmap;
  const scale = Math.min(1, fittedLongSide / Math.max(bitmap.width, bitmap.height));
  const width = Math.max(1, Math.round(bitmap.width * scale));
  const height = Math.max(1, Math.round(bitmap.height * scale));
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d');
  if (context === null) {
    bitmap.close();
    return { error: unreadableImageMessage };
  }
  // JPEG has no transparency: a transparent PNG's clear parts become white, not black.
  context.fillStyle = '#fff';
  context.fillRect(0, 0, width, height);
  context.imageSmoothingQuality = 'high';
  context.drawImage(bitmap, 0, 0, width, height);
  bitmap.close();
  let image: Blob | null = null;
  for (const quality of jpegQualities) {
    image = await toJpeg(canvas, quality);
    if (image === null || image.size <= imageMaxBytes) break;
  }
  if (image === null) return { error: unreadableImageMessage };
  const limit = `the ${String(imageMaxBytes / MB)} MB limit`;
  const note =
    scale < 1
      ? `Resized to ${String(width)} × ${String(height)} to fit ${limit}.`
      : heic
        ? 'Converted from HEIC to JPEG.'
        : `Converted to JPEG to fit ${limit}.`;
  return { image, note };
}

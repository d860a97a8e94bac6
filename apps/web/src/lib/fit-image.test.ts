import { describe, expect, it } from 'vitest';
import { isHeic } from './fit-image';

/** An ISO base media file's start: an `ftyp` box with a major brand, a version and brands. */
function ftyp(major: string, compatible: string[]): Uint8Array<ArrayBuffer> {
  const text = `ftyp${major}\0\0\0\0${compatible.join('')}`;
  const bytes = new Uint8Array(4 + text.length + 8);
  new DataView(bytes.buffer).setUint32(0, 4 + text.length);
  bytes.set(new TextEncoder().encode(text), 4);
  return bytes;
}

describe('isHeic', () => {
  it('knows a HEIC photo by its ftyp brands, whatever its name or type', async () => {
    expect(await isHeic(new File([ftyp('heic', ['mif1', 'heic'])], 'IMG_0001'))).toBe(true);
    // An HEVC brand among the compatible ones, behind a generic major brand.
    expect(await isHeic(new File([ftyp('mif1', ['mif1', 'heix'])], 'photo.jpg'))).toBe(true);
  });

  it('takes the type a browser names a HEIC file by', async () => {
    expect(await isHeic(new File(['x'], 'a.heic', { type: 'image/heic' }))).toBe(true);
    expect(await isHeic(new File(['x'], 'a.heif', { type: 'image/heif' }))).toBe(true);
  });

  it('leaves out AVIF, which shares the container, and other files', async () => {
    expect(await isHeic(new File([ftyp('avif', ['mif1', 'avif', 'miaf'])], 'a.avif'))).toBe(false);
    expect(await isHeic(new File([new Uint8Array([0xff, 0xd8, 0xff, 0xe0])], 'a.jpg'))).toBe(false);
    expect(await isHeic(new File([], 'empty'))).toBe(false);
  });
});

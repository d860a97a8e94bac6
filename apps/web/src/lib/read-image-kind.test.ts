import { describe, expect, it, vi } from 'vitest';
import { photoPixels, stubCanvas, xrayPixels } from '#web/test/canvas-stub';
import { readImageKind, sampleSize } from './read-image-kind';

const png = () => new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], { type: 'image/png' });

describe('reading the kind of image in the browser', () => {
  it.each([
    [640, 480, 64, 48],
    [480, 640, 48, 64],
    [2048, 1024, 64, 32],
    [64, 64, 64, 64],
    // Smaller images grow to the square, as the API's resize does.
    [32, 16, 64, 32],
    // A sliver keeps at least one pixel.
    [5000, 20, 64, 1],
  ])('samples %i × %i at %i × %i', (width, height, sampleWidth, sampleHeight) => {
    expect(sampleSize(width, height)).toEqual({ width: sampleWidth, height: sampleHeight });
  });

  it.each([
    ['an X-ray', xrayPixels, 'xray'],
    ['a colour photo', photoPixels, 'photo'],
  ] as const)('reads %s from its sampled pixels', async (_name, pixels, kind) => {
    const canvases = stubCanvas(pixels, { width: 1280, height: 960 });
    await expect(readImageKind(png())).resolves.toBe(kind);
    expect(canvases).toEqual([{ width: 64, height: 48 }]);
  });

  it('leaves the kind to the API where the browser cannot read the image', async () => {
    // jsdom has no createImageBitmap, like an old browser.
    await expect(readImageKind(png())).resolves.toBeNull();
    vi.stubGlobal('createImageBitmap', () =>
      Promise.reject(new DOMException('', 'InvalidStateError')),
    );
    await expect(readImageKind(png())).resolves.toBeNull();
  });
});

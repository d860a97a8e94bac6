import { vi } from 'vitest';

type Rgb = readonly [number, number, number];

/** RGBA pixels, as a canvas reads them back, cycling through the given colours. */
export function rgbaPixels(colours: readonly Rgb[], count = 64 * 48): Uint8ClampedArray {
  const pixels = new Uint8ClampedArray(count * 4);
  for (let index = 0; index < count; index += 1) {
    const [r, g, b] = colours[index % colours.length] ?? [0, 0, 0];
    pixels.set([r, g, b, 255], index * 4);
  }
  return pixels;
}

/** Greys, as an X-ray reads. */
export const xrayPixels = rgbaPixels([
  [20, 20, 20],
  [128, 128, 128],
  [230, 230, 230],
]);

/** Gums, lips and teeth, as an intra-oral photo reads. */
export const photoPixels = rgbaPixels([
  [200, 80, 80],
  [240, 230, 220],
  [150, 40, 60],
]);

/**
 * Stands in for the browser's image decoding and 2D canvas, which jsdom lacks: every image
 * decodes to `size` and its drawing reads back as `pixels`. Returns the sizes canvases were made
 * at. Undone by the setup's `unstubAllGlobals` and `restoreAllMocks`.
 */
export function stubCanvas(pixels: Uint8ClampedArray, size = { width: 640, height: 480 }) {
  const canvases: { width: number; height: number }[] = [];
  vi.stubGlobal('createImageBitmap', () =>
    Promise.resolve({ ...size, close: () => undefined } satisfies Partial<ImageBitmap>),
  );
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(function (
    this: HTMLCanvasElement,
  ) {
    canvases.push({ width: this.width, height: this.height });
    const context: Pick<CanvasRenderingContext2D, 'drawImage' | 'getImageData'> = {
      drawImage: () => undefined,
      getImageData: (_x, _y, width, height) =>
        ({ data: pixels, width, height, colorSpace: 'srgb' }) as ImageData,
    };
    return context as CanvasRenderingContext2D;
  });
  return canvases;
}

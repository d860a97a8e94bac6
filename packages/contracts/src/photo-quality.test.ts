import { describe, expect, it } from 'vitest';
import { analysisSize, measurePhotoQuality, photoRefusal, type RgbaPixels } from './photo-quality';

type Rgb = readonly [number, number, number];

/** A square frame of 2-pixel checks in two colours (one colour when both are the same). */
function checks(side: number, a: Rgb, b: Rgb): RgbaPixels & { data: Uint8ClampedArray } {
  const data = new Uint8ClampedArray(side * side * 4);
  for (let y = 0; y < side; y += 1) {
    for (let x = 0; x < side; x += 1) {
      const [r, g, blue] = (Math.floor(x / 2) + Math.floor(y / 2)) % 2 === 0 ? a : b;
      data.set([r, g, blue, 255], (y * side + x) * 4);
    }
  }
  return { data, width: side, height: side };
}

const enamel: Rgb = [232, 228, 214];
const shade: Rgb = [150, 146, 136];

describe('photoRefusal', () => {
  it.each([
    ['sharp, well lit teeth', checks(64, enamel, shade), null],
    ['an even, featureless frame', checks(64, shade, shade), 'blurred'],
    ['a frame in the dark', checks(64, [12, 10, 9], [30, 28, 26]), 'dark'],
    ['a frame washed out to white', checks(64, [255, 255, 255], [250, 250, 250]), 'bright'],
    ['sharp gums and lips, no teeth', checks(64, [200, 60, 70], [120, 30, 40]), 'small'],
  ] as const)('%s → %s', (_, pixels, reason) => {
    expect(photoRefusal(measurePhotoQuality(pixels))).toBe(reason);
  });

  it('reads teeth only inside the outline', () => {
    const frame = checks(64, [200, 60, 70], [120, 30, 40]);
    // Teeth in the corners only, outside the ellipse.
    for (const [x, y] of [
      [0, 0],
      [63, 0],
      [0, 63],
      [63, 63],
    ] as const) {
      frame.data.set([...enamel, 255], (y * 64 + x) * 4);
    }
    expect(measurePhotoQuality(frame).teethFill).toBe(0);
    expect(measurePhotoQuality(checks(64, enamel, shade)).teethFill).toBe(1);
  });
});

describe('analysisSize', () => {
  it.each([
    [1280, 720, { width: 256, height: 144 }],
    [720, 1280, { width: 144, height: 256 }],
    [200, 100, { width: 200, height: 100 }],
  ])('%i × %i → %o', (width, height, size) => {
    expect(analysisSize(width, height)).toEqual(size);
  });
});

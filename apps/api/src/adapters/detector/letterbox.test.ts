import { describe, expect, it } from 'vitest';
import { letterboxGeometry, toImagePixels } from './letterbox';

describe('letterboxGeometry', () => {
  it.each([
    // width, height, size → scale, resized, padding (left/top floored, the rest right/bottom)
    { width: 640, height: 640, size: 320, scale: 0.5, resized: [320, 320], pad: [0, 0] },
    { width: 200, height: 100, size: 64, scale: 0.32, resized: [64, 32], pad: [0, 16] },
    { width: 100, height: 200, size: 64, scale: 0.32, resized: [32, 64], pad: [16, 0] },
    { width: 1000, height: 333, size: 288, scale: 0.288, resized: [288, 96], pad: [0, 96] },
    { width: 3, height: 2, size: 64, scale: 64 / 3, resized: [64, 43], pad: [0, 10] },
    { width: 32, height: 32, size: 64, scale: 2, resized: [64, 64], pad: [0, 0] },
  ])('$width×$height into $size', ({ width, height, size, scale, resized, pad }) => {
    const geometry = letterboxGeometry(width, height, size);
    expect(geometry.scale).toBeCloseTo(scale, 10);
    expect([geometry.resizedWidth, geometry.resizedHeight]).toEqual(resized);
    expect([geometry.padLeft, geometry.padTop]).toEqual(pad);
  });
});

describe('toImagePixels', () => {
  const wide = letterboxGeometry(200, 100, 64);

  it.each([
    { name: 'a box inside the image', box: [8, 24, 24, 40], expected: [25, 25, 75, 75] },
    { name: 'the whole input square', box: [0, 0, 64, 64], expected: [0, 0, 200, 100] },
    { name: 'a box in the padding only', box: [0, 0, 64, 10], expected: [0, 0, 200, 0] },
    { name: 'a box past the right edge', box: [60, 30, 70, 40], expected: [187.5, 43.75, 200, 75] },
  ])('maps $name back and clips it', ({ box, expected }) => {
    const [x1, y1, x2, y2] = box as [number, number, number, number];
    const mapped = toImagePixels({ x1, y1, x2, y2 }, wide);
    expect([mapped.x1, mapped.y1, mapped.x2, mapped.y2].map((v) => Number(v.toFixed(6)))).toEqual(
      expected,
    );
  });

  it('inverts the forward mapping', () => {
    const geometry = letterboxGeometry(1280, 720, 640);
    const original = { x1: 100, y1: 50, x2: 900, y2: 700 };
    const forward = {
      x1: original.x1 * geometry.scale + geometry.padLeft,
      y1: original.y1 * geometry.scale + geometry.padTop,
      x2: original.x2 * geometry.scale + geometry.padLeft,
      y2: original.y2 * geometry.scale + geometry.padTop,
    };
    const back = toImagePixels(forward, geometry);
    for (const key of ['x1', 'y1', 'x2', 'y2'] as const) {
      expect(back[key]).toBeCloseTo(original[key], 9);
    }
  });
});

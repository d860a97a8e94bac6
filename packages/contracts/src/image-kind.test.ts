import { describe, expect, it } from 'vitest';
import { chromaSpread, imageKindOf } from './image-kind';

/** RGBA pixels: each colour repeated `times`. */
const rgba = (colours: [number, number, number][], times = 16) =>
  colours.flatMap((colour) => Array.from({ length: times }, () => [...colour, 255]).flat());

describe('imageKindOf', () => {
  const greys: [number, number, number][] = [30, 90, 150, 210, 250].map((v) => [v, v, v]);

  it('reads a grey picture as an X-ray, tinted or not', () => {
    expect(imageKindOf(rgba(greys), 4)).toBe('xray');
    const sepia = greys.map(([v]): [number, number, number] => [v, v * 0.93, v * 0.8]);
    expect(chromaSpread(rgba(sepia), 4)).toBeLessThan(0.5);
    expect(imageKindOf(rgba(sepia), 4)).toBe('xray');
  });

  it('reads teeth beside gums and lips as a photo', () => {
    const mouth: [number, number, number][] = [
      [235, 225, 200],
      [200, 80, 90],
      [170, 60, 70],
      [225, 215, 190],
    ];
    expect(imageKindOf(rgba(mouth), 4)).toBe('photo');
    // The same pixels packed as RGB.
    expect(
      imageKindOf(
        rgba(mouth).filter((_, index) => index % 4 !== 3),
        3,
      ),
    ).toBe('photo');
  });

  it('ignores the hue of pixels too dark to have one', () => {
    const darkNoise: [number, number, number][] = [
      [20, 0, 0],
      [0, 20, 0],
      [0, 0, 20],
    ];
    expect(imageKindOf(rgba([...greys, ...darkNoise]), 4)).toBe('xray');
    expect(imageKindOf([], 4)).toBe('xray');
  });
});

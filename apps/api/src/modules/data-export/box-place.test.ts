import { describe, expect, it } from 'vitest';
import { boxPlace } from './box-place';

describe('where a box lies on its image, in words', () => {
  it.each([
    [{ xmin: 0, ymin: 0, xmax: 10, ymax: 10 }, 'the top left'],
    [{ xmin: 290, ymin: 0, xmax: 300, ymax: 10 }, 'the top right'],
    [{ xmin: 140, ymin: 140, xmax: 160, ymax: 160 }, 'the centre'],
    [{ xmin: 140, ymin: 280, xmax: 160, ymax: 300 }, 'the bottom centre'],
    [{ xmin: 0, ymin: 140, xmax: 20, ymax: 160 }, 'the middle left'],
    // A box reaching the far edge stays in the last third.
    [{ xmin: 200, ymin: 200, xmax: 300, ymax: 300 }, 'the bottom right'],
  ])('%j lies in %s of a 300 × 300 image', (box, words) => {
    expect(boxPlace(box, 300, 300)).toBe(words);
  });
});

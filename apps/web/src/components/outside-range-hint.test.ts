import { describe, expect, it } from 'vitest';
import { outsideRangeText, type OutsideRangeWords } from './outside-range-hint';

const photos: OutsideRangeWords = { one: 'photo', many: 'photos', before: 'older', after: 'newer' };

describe('outsideRangeText', () => {
  it.each([
    [0, 0, null],
    [3, 0, '3 older photos are outside these dates'],
    [1, 0, '1 older photo is outside these dates'],
    [0, 1, '1 newer photo is outside these dates'],
    [0, 2, '2 newer photos are outside these dates'],
    [1, 1, '1 older and 1 newer photos are outside these dates'],
    [12, 4, '12 older and 4 newer photos are outside these dates'],
  ])('%i before and %i after: %s', (before, after, text) => {
    expect(outsideRangeText({ before, after }, photos)).toBe(text);
  });
});

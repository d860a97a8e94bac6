import { describe, expect, it } from 'vitest';
import { entityTag, ifNoneMatchHits } from './http-cache';

const hash = 'a'.repeat(32) + 'b'.repeat(32);
const tag = entityTag(hash);

describe('entityTag', () => {
  it('quotes the first 128 bits of the hash', () => {
    expect(tag).toBe(`"${'a'.repeat(32)}"`);
  });
});

describe('ifNoneMatchHits', () => {
  it.each([
    [undefined, false],
    ['', false],
    [tag, true],
    [`W/${tag}`, true],
    [`"other", ${tag}`, true],
    [`"other",${tag}`, true],
    ['*', true],
    ['"other"', false],
    [tag.slice(1, -1), false],
  ])('If-None-Match %j matches: %s', (header, expected) => {
    expect(ifNoneMatchHits(header, tag)).toBe(expected);
  });
});

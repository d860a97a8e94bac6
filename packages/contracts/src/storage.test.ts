import { describe, expect, it } from 'vitest';
import { formatStorage } from './storage';

describe('formatStorage', () => {
  it.each([
    [0, '0B'],
    [512, '512B'],
    [1024, '1KB'],
    [1536, '1.5KB'],
    [5 * 1024 * 1024, '5MB'],
    [2.3 * 1024 ** 3, '2.3GB'],
    [1024 ** 3, '1GB'],
    [15 * 1024 ** 3, '15GB'],
    [2048 * 1024 ** 3, '2048GB'],
  ])('writes %d bytes as %s', (bytes, shown) => {
    expect(formatStorage(bytes)).toBe(shown);
  });
});

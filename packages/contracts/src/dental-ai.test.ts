import { describe, expect, it } from 'vitest';
import { coloursByFirstAppearance } from './dental-ai';

describe('coloursByFirstAppearance', () => {
  it.each([
    { labels: [], colours: {} },
    { labels: ['Cavity'], colours: { Cavity: 'red' } },
    {
      labels: ['Implant', 'Cavity', 'Implant', 'Fillings'],
      colours: { Implant: 'red', Cavity: 'green', Fillings: 'yellow' },
    },
    {
      labels: ['a', 'b', 'c', 'd', 'e', 'a'],
      colours: { a: 'red', b: 'green', c: 'yellow', d: 'purple', e: 'blue' },
    },
    {
      labels: ['a', 'b', 'c', 'd', 'e', 'f'],
      colours: { a: 'red', b: 'green', c: 'yellow', d: 'purple', e: 'blue', f: 'red' },
    },
  ])('$labels', ({ labels, colours }) => {
    expect(Object.fromEntries(coloursByFirstAppearance(labels))).toEqual(colours);
  });
});

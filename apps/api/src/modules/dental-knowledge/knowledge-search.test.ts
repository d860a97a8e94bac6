import { describe, expect, it } from 'vitest';
import { searchWords } from '@dental/contracts';
import { excerptLength, excerptOf, holdsEveryWord, plainTextOf } from './knowledge-search';

describe('plainTextOf', () => {
  it.each([
    ['## When to see a dentist', 'When to see a dentist'],
    ['Brush **twice a day** with _care_.', 'Brush twice a day with care .'],
    ['See [the NHS](https://www.nhs.uk/) now.', 'See the NHS now.'],
    ['![A tooth](tooth.svg)\n\n- one\n- two', 'one two'],
    ['1. First\n2. Second', 'First Second'],
    ['> Quoted <b>bold</b>', 'Quoted bold'],
    ['| a | b |\n|---|---|\n| c | d |', 'a b c d'],
  ])('turns %j into %j', (markdown, text) => {
    expect(plainTextOf(markdown)).toBe(text);
  });
});

describe('searchWords and holdsEveryWord', () => {
  it('lower-cases, splits on spaces and keeps each word once', () => {
    expect(searchWords('  Floss  GUMS floss ')).toEqual(['floss', 'gums']);
    expect(searchWords('   ')).toEqual([]);
  });

  it('needs every word, from the title or the text, in any letter case', () => {
    const words = searchWords('brush Night');
    expect(holdsEveryWord('How to Brush', 'last thing at night', words)).toBe(true);
    expect(holdsEveryWord('How to Brush', 'in the morning', words)).toBe(false);
    // Not a match across the title's end and the text's start.
    expect(holdsEveryWord('Brush', 'night', searchWords('brushnight'))).toBe(false);
  });
});

describe('excerptOf', () => {
  const text = Array.from({ length: 80 }, (_, index) => `word${String(index)}`).join(' ');

  it('shows the passage around the first word found, cut at spaces with ellipses', () => {
    const excerpt = excerptOf(text, ['word40', 'word70']);
    expect(excerpt).toContain('word40');
    expect(excerpt.startsWith('…word')).toBe(true);
    expect(excerpt.endsWith('…')).toBe(true);
    expect(excerpt.length).toBeLessThanOrEqual(excerptLength + 2);
    // Whole words only: no word is cut in two.
    for (const word of excerpt.replaceAll('…', '').split(' ')) expect(word).toMatch(/^word\d+$/u);
  });

  it('shows the opening when only the title matched, and a short text whole', () => {
    expect(excerptOf(text, ['absent']).startsWith('word0 word1')).toBe(true);
    expect(excerptOf('Floss once a day.', ['floss'])).toBe('Floss once a day.');
  });
});

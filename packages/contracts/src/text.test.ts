import { describe, expect, it } from 'vitest';
import {
  controlCharacterMessage,
  multiLineText,
  singleLineText,
  textDirectionMessage,
} from './text';

const messagesOf = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues.map((issue) => issue.message) ?? [];

const overrides = {
  'LEFT-TO-RIGHT EMBEDDING': '\u202A',
  'RIGHT-TO-LEFT EMBEDDING': '\u202B',
  'POP DIRECTIONAL FORMATTING': '\u202C',
  'LEFT-TO-RIGHT OVERRIDE': '\u202D',
  'RIGHT-TO-LEFT OVERRIDE': '\u202E',
  'LEFT-TO-RIGHT ISOLATE': '\u2066',
  'RIGHT-TO-LEFT ISOLATE': '\u2067',
  'FIRST STRONG ISOLATE': '\u2068',
  'POP DIRECTIONAL ISOLATE': '\u2069',
};
const marks = {
  'LEFT-TO-RIGHT MARK': '\u200E',
  'RIGHT-TO-LEFT MARK': '\u200F',
  'ARABIC LETTER MARK': '\u061C',
};

describe('text-direction characters', () => {
  it.each(Object.entries({ ...overrides, ...marks }))(
    'single-line text refuses %s',
    (_name, character) => {
      const result = singleLineText().safeParse(`Sam${character}fdp.exe`);
      expect(messagesOf(result)).toEqual([textDirectionMessage]);
    },
  );

  it.each(Object.entries(overrides))('multi-line text refuses %s', (_name, character) => {
    const result = multiLineText().safeParse(`Bring the x-rays\n${character}gnp.exe`);
    expect(messagesOf(result)).toEqual([textDirectionMessage]);
  });

  // Marks only settle the direction of neighbouring neutral characters; right-to-left writers
  // type them in running text, and they cannot reverse a word.
  it.each(Object.entries(marks))('multi-line text keeps %s', (_name, character) => {
    const note = `العربية${character} (2)\nline two`;
    expect(multiLineText().parse(note)).toBe(note);
  });

  it('keeps right-to-left letters themselves in both kinds', () => {
    expect(singleLineText().parse('שרה כהן')).toBe('שרה כהן');
    expect(multiLineText().parse('مرحبا\nسارة')).toBe('مرحبا\nسارة');
  });

  it('names both problems when a text has a control and a direction character', () => {
    const result = singleLineText().safeParse('a\u0000b\u202E');
    expect(messagesOf(result)).toEqual([controlCharacterMessage, textDirectionMessage]);
  });
});

import { z } from 'zod';

const tab = 0x09;
const lineFeed = 0x0a;
const carriageReturn = 0x0d;

/** C0 controls (NUL included), DEL and C1 controls: never part of text a member types. */
function isControl(code: number): boolean {
  return code <= 0x1f || (code >= 0x7f && code <= 0x9f);
}

function hasControl(value: string, allowLineBreaks: boolean): boolean {
  for (let index = 0; index < value.length; index++) {
    const code = value.charCodeAt(index);
    if (!isControl(code)) continue;
    if (allowLineBreaks && (code === tab || code === lineFeed || code === carriageReturn)) continue;
    return true;
  }
  return false;
}

/**
 * Embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069) reorder whatever follows
 * them, so a name or note could show other members 'exe.pdf' as 'fdp.exe'
 * (docs/decisions/text-direction-characters.md).
 */
function isDirectionOverride(code: number): boolean {
  return (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069);
}

/** Invisible marks (LRM, RLM, ALM): they only settle neutral characters' direction. */
function isDirectionMark(code: number): boolean {
  return code === 0x200e || code === 0x200f || code === 0x061c;
}

function hasDirectionControl(value: string, allowMarks: boolean): boolean {
  for (let index = 0; index < value.length; index++) {
    const code = value.charCodeAt(index);
    if (isDirectionOverride(code) || (!allowMarks && isDirectionMark(code))) return true;
  }
  return false;
}

export const controlCharacterMessage =
  'Remove the control characters (such as NUL) from this text.';

export const textDirectionMessage =
  'Remove the invisible text-direction characters (such as U+202E) from this text.';

/**
 * The text fields of every request: control characters are refused with a field error before
 * anything reaches the database (PostgreSQL cannot store NUL), and so are
 * text-direction characters, which could disguise a name other members see.
 */
export function singleLineText(error?: string) {
  return z
    .string(error)
    .refine((value) => !hasControl(value, false), controlCharacterMessage)
    .refine((value) => !hasDirectionControl(value, false), textDirectionMessage);
}

/** A field that may span lines (notes, answers): tab and line breaks are allowed, and so are
 *  the direction marks that right-to-left writers type in running text. */
export function multiLineText(error?: string) {
  return z
    .string(error)
    .refine((value) => !hasControl(value, true), controlCharacterMessage)
    .refine((value) => !hasDirectionControl(value, true), textDirectionMessage);
}

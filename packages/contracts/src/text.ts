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

export const controlCharacterMessage =
  'Remove the control characters (such as NUL) from this text.';

/**
 * The text fields of every request: control characters are refused with a field error before
 * anything reaches the database (PostgreSQL cannot store NUL; issue 11).
 */
export function singleLineText(error?: string) {
  return z.string(error).refine((value) => !hasControl(value, false), controlCharacterMessage);
}

/** A field that may span lines (notes, answers): tab and line breaks are allowed. */
export function multiLineText(error?: string) {
  return z.string(error).refine((value) => !hasControl(value, true), controlCharacterMessage);
}

/**
 * Search over the knowledge articles' titles and text (docs/product/knowledge.md#search): pure
 * functions, so the rules are tested without a database.
 */

/** The words a reader sees: markdown's marks, link addresses and images left out, one space
 *  between words, so a word is found as it reads and a passage shows no syntax. */
export function plainTextOf(markdown: string): string {
  return markdown
    .replace(/!\[[^\]]*\]\([^)]*\)/gu, ' ') // images
    .replace(/\[([^\]]*)\]\([^)]*\)/gu, '$1') // links keep their words
    .replace(/<[^>]*>/gu, ' ') // raw HTML is never shown (docs/product/general.md#markdown)
    .replace(/^\s{0,3}(?:#{1,6}|>|[-*+]|\d+[.)])\s+/gmu, '') // headings, quotes, list marks
    .replace(/^\s*\|?[\s:|-]+\|[\s:|-]*$/gmu, ' ') // table rules
    .replace(/[*_`~|]+/gu, ' ')
    .replace(/\s+/gu, ' ')
    .trim();
}

/** True when every word is in the title or the text (both lower-cased by the caller's rule). */
export function holdsEveryWord(title: string, text: string, words: readonly string[]): boolean {
  const haystack = `${title}\n${text}`.toLocaleLowerCase('en');
  return words.every((word) => haystack.includes(word));
}

/** Characters of text shown around the first word found. */
export const excerptLength = 180;

/**
 * About `excerptLength` characters of `text` around the first of `words` it holds, cut at word
 * boundaries and marked with '…' where cut; the opening of the text when it holds none (only the
 * title matched).
 */
export function excerptOf(text: string, words: readonly string[]): string {
  const lower = text.toLocaleLowerCase('en');
  const found = words
    .map((word) => lower.indexOf(word))
    .filter((index) => index >= 0)
    .sort((a, b) => a - b)[0];
  const centre = found ?? 0;
  let start = Math.max(0, centre - Math.floor(excerptLength / 3));
  let end = Math.min(text.length, start + excerptLength);
  start = Math.max(0, end - excerptLength);
  // Whole words only: move each cut to the nearest space inside the passage.
  if (start > 0) {
    const space = text.indexOf(' ', start);
    if (space !== -1 && space < centre) start = space + 1;
  }
  if (end < text.length) {
    const space = text.lastIndexOf(' ', end);
    if (space > centre) end = space;
  }
  return `${start > 0 ? '…' : ''}${text.slice(start, end)}${end < text.length ? '…' : ''}`;
}

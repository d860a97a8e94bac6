/** A strong entity tag from a content hash (hex). */
export function entityTag(sha256: string): string {
  return `"${sha256.slice(0, 32)}"`;
}

/**
 * RFC 9110 §13.1.2: If-None-Match matches when it is `*` or lists the tag; the comparison is weak,
 * so a `W/` prefix added by a proxy still matches.
 */
export function ifNoneMatchHits(header: string | undefined, tag: string): boolean {
  if (header === undefined) return false;
  return header
    .split(',')
    .map((candidate) => candidate.trim().replace(/^W\//, ''))
    .some((candidate) => candidate === '*' || candidate === tag);
}

/** Schemes a markdown link or image may use (docs/product/general.md#markdown); anything else
 *  becomes a no-op link. */
const allowedSchemes = new Set(['http', 'https', 'mailto', 'tel']);

function isControlOrSpace(char: string): boolean {
  return char.charCodeAt(0) <= 0x20;
}

/** What a browser would actually navigate to: the WHATWG URL parser drops ASCII tab and newline
 *  anywhere and C0 controls and spaces at both ends, so "java\tscript:" means "javascript:". */
function asBrowserSeesIt(raw: string): string {
  const url = raw.replace(/[\t\n\r]/g, '');
  let start = 0;
  let end = url.length;
  while (start < end && isControlOrSpace(url.charAt(start))) start += 1;
  while (end > start && isControlOrSpace(url.charAt(end - 1))) end -= 1;
  return url.slice(start, end);
}

/**
 * The markdown URL policy: http, https, mailto and tel URLs, relative paths, anchors and
 * protocol-relative `//host` links (they resolve to this page's own http or https, which are
 * allowed anyway) pass; every other scheme (javascript:, data:, vbscript:, …) gives undefined.
 */
export function safeMarkdownUrl(raw: string): string | undefined {
  const url = asBrowserSeesIt(raw);
  const schemeEnd = url.search(/[:/?#]/);
  // No colon before the first '/', '?' or '#': a relative reference, an anchor or `//host`.
  if (schemeEnd === -1 || url.charAt(schemeEnd) !== ':') return url;
  const scheme = url.slice(0, schemeEnd).toLowerCase();
  return allowedSchemes.has(scheme) ? url : undefined;
}

/** Links that leave the app open in a new tab. */
export function isExternalMarkdownUrl(url: string): boolean {
  return /^(https?:)?\/\//i.test(url);
}

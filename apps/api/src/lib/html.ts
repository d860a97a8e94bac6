/** Text as HTML content or a quoted attribute value. */
export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

/** An e-mail's lines as the paragraphs of its HTML part. */
export const htmlParagraphs = (lines: readonly string[]) =>
  lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('\n');

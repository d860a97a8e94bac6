/** Pictures are addressed by their hash, so each address can be cached for good. */
export const contentImagesPath = '/api/content/images/';

export function contentImagePath(sha256: string): string {
  return `${contentImagesPath}${sha256}.svg`;
}

import type { LinkedFile } from './signed-links';

/** Every practitioner's portrait key starts with this: `practitioners/<doctor id>/<uuid>.<ext>`.
 *  Outside `users/`, so the member-file orphan sweep never lists it. */
export const portraitPrefix = 'practitioners/';

/** The stored portrait of a doctor, when one was uploaded. */
export interface Portrait {
  photoBlobKey: string | null;
  photoContentType: string | null;
}

/** A short-lived link to the portrait, shown to patients choosing a doctor and in the console;
 *  null without one. */
export function portraitLink(
  links: { sign(file: LinkedFile): string },
  { photoBlobKey, photoContentType }: Portrait,
): string | null {
  if (photoBlobKey === null || photoContentType === null) return null;
  return links.sign({
    key: photoBlobKey,
    contentType: photoContentType,
    disposition: 'inline',
    fileName: 'portrait',
  });
}

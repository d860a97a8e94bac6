import type { OralPhoto } from '@dental/contracts';

/** What a photo is called on every screen, the member's and a dentist's: 'X-ray of 2026-11-25'. */
export function photoLabel(photo: Pick<OralPhoto, 'photo_type' | 'shoot_date'>): string {
  return `${photo.photo_type} of ${photo.shoot_date}`;
}

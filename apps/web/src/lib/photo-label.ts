import type { OralPhoto } from '@dental/contracts';

/** What a photo is called on every screen, the member's and a dentist's: 'X-ray of 2026-11-25'. */
export function photoLabel(photo: OralPhoto): string {
  return `${photo.photo_type} of ${photo.shoot_date}`;
}

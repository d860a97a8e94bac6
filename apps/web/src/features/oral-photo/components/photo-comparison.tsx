import { Text } from '@mantine/core';
import type { OralPhoto } from '@dental/contracts';
import { Dialog } from '#web/components/dialog';
import { LoadingImage } from '#web/components/loading-image';
import { photoLabel } from '#web/lib/photo-label';
import classes from './photo-comparison.module.css';

export interface PhotoComparisonProps {
  /** Any two of the member's photos and X-rays, in any order; the earlier is shown first, as
   *  'Before'. */
  photos: readonly [OralPhoto, OralPhoto] | null;
  onClose: () => void;
}

/** Before and after: two photos, two X-rays, or a photo and an X-ray side by side with their
 *  dates (docs/decisions/photo-comparison.md). */
export function PhotoComparison({ photos, onClose }: PhotoComparisonProps) {
  const ordered =
    photos === null ? [] : [...photos].sort((a, b) => a.shoot_date.localeCompare(b.shoot_date));
  const types = new Set(photos?.map((photo) => photo.photo_type));
  const title =
    types.size > 1
      ? 'Compare a photo and an X-ray'
      : types.has('X-ray')
        ? 'Compare X-rays'
        : 'Compare photos';
  return (
    <Dialog opened={photos !== null} onClose={onClose} title={title} size="xl" withCloseButton>
      <div className={classes.pair}>
        {ordered.map((photo, at) => (
          <figure key={photo.id} className={classes.figure}>
            <LoadingImage src={photo.image_link} alt={photoLabel(photo)} height={420} />
            <Text component="figcaption" ta="center" mt="xs">
              <Text span fw={600}>
                {at === 0 ? 'Before' : 'After'}:
              </Text>{' '}
              {photo.shoot_date}
            </Text>
          </figure>
        ))}
      </div>
    </Dialog>
  );
}

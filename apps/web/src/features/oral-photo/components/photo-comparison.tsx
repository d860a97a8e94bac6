import { Text } from '@mantine/core';
import type { OralPhoto } from '@dental/contracts';
import { Dialog } from '#web/components/dialog';
import { LoadingImage } from '#web/components/loading-image';
import { photoLabel } from '#web/lib/photo-label';
import classes from './photo-comparison.module.css';

export interface PhotoComparisonProps {
  /** Two photos of one type, in any order; the earlier is shown first, as 'Before'. */
  photos: readonly [OralPhoto, OralPhoto] | null;
  onClose: () => void;
}

/** Before and after: two photos or two X-rays side by side with their dates
 *  (docs/decisions/photo-comparison.md). */
export function PhotoComparison({ photos, onClose }: PhotoComparisonProps) {
  const ordered =
    photos === null ? [] : [...photos].sort((a, b) => a.shoot_date.localeCompare(b.shoot_date));
  const type = photos?.[0].photo_type === 'X-ray' ? 'X-rays' : 'photos';
  return (
    <Dialog
      opened={photos !== null}
      onClose={onClose}
      title={`Compare ${type}`}
      size="xl"
      withCloseButton
    >
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

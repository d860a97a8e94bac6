import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '#web/config/paths';
import { savedEntryState } from '#web/components/saved-entry-range';
import { photoLabel } from '#web/lib/photo-label';
import { useOralPhoto } from '#web/lib/oral-photo-query';

/** The stored photo or X-ray a result was run on: a link that opens its card in the list, which
 *  lists its results in turn (docs/product/dental-ai.md#on-a-stored-image). */
export function SourcePhoto({ photoId }: { photoId: string }) {
  const photo = useOralPhoto(photoId);
  if (!photo.data) return null;
  const { state } = savedEntryState(photo.data.shoot_date, photo.data.id);
  return (
    <Text size="sm">
      Run on your stored{' '}
      <Anchor component={Link} to={paths.oralPhotos} state={state} underline="always">
        {photoLabel(photo.data)}
      </Anchor>
      .
    </Text>
  );
}

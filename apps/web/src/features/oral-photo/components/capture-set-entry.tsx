import { Group, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { OralPhoto } from '@dental/contracts';
import { paths } from '#web/config/paths';
import classes from './capture-set-entry.module.css';

/** The photos of the loaded list that belong to `photo`'s set when `photo` is the first of them,
 *  so the list shows the set once, where its newest photo stands; null for the set's other photos
 *  (and for a photo of no set, which is not a set's first). */
export function setLedBy(
  photo: OralPhoto,
  list: readonly OralPhoto[],
): [OralPhoto, ...OralPhoto[]] | null {
  if (photo.capture_set_id === null) return null;
  const members = list.filter((other) => other.capture_set_id === photo.capture_set_id);
  return members[0] === photo ? [photo, ...members.slice(1)] : null;
}

/** A guided capture as one entry of the photo list (docs/product/records.md#guided-capture): its
 *  date and the thumbnails of its views, opening the set. */
export function CaptureSetEntry({ photos }: { photos: readonly [OralPhoto, ...OralPhoto[]] }) {
  const [first] = photos;
  const count = photos.length === 1 ? '1 view' : `${String(photos.length)} views`;
  return (
    <Link to={paths.oralPhotoSet(first.capture_set_id ?? '')} className={classes.entry}>
      <Group gap="xs">
        <Text fw={600}>{first.shoot_date}</Text>
        <Text c="dimmed">{`Set of photos, ${count}`}</Text>
      </Group>
      <div className={classes.thumbs}>
        {/* The entry's text names it; the thumbnails are not read out one by one. */}
        {photos.map((photo) => (
          <img key={photo.id} src={photo.thumbnail_link} alt="" className={classes.thumb} />
        ))}
      </div>
    </Link>
  );
}

import { Accordion, Button, Group, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { OralPhoto } from '@dental/contracts';
import { paths } from '#web/app/paths';
import { DeleteButton } from '#web/components/delete-button';
import { LoadingImage } from '#web/components/loading-image';
import { useDeleteOralPhoto } from '../api/delete-oral-photo';

/** One expandable photo card (docs/product/records.md#x-rays-and-photos): image, date, type and
 *  note, with download, delete and edit. The card shows the thumbnail; Download fetches the
 *  original. */
export function PhotoCard({ photo, opened }: { photo: OralPhoto; opened: boolean }) {
  const deletePhoto = useDeleteOralPhoto();
  const label = `${photo.photo_type} of ${photo.shoot_date}`;
  return (
    <Accordion.Item value={photo.id}>
      <Accordion.Control>
        <Group gap="xs" wrap="nowrap">
          <Text fw={600}>{photo.shoot_date}</Text>
          <Text c="dimmed">{photo.photo_type}</Text>
        </Group>
      </Accordion.Control>
      <Accordion.Panel>
        <Stack gap="sm">
          {opened && <LoadingImage src={photo.thumbnail_link} alt={label} height={240} />}
          <Text>
            <Text span fw={600}>
              Date:
            </Text>{' '}
            {photo.shoot_date}
          </Text>
          <Text>
            <Text span fw={600}>
              Type:
            </Text>{' '}
            {photo.photo_type}
          </Text>
          {photo.note !== '' && <Text style={{ whiteSpace: 'pre-wrap' }}>{photo.note}</Text>}
          <Group gap="xs">
            <Button component="a" href={photo.image_link} download variant="default" size="xs">
              Download
            </Button>
            <Button component={Link} to={paths.oralPhotoEdit(photo.id)} variant="default" size="xs">
              Edit
            </Button>
            <DeleteButton
              deletion={deletePhoto}
              id={photo.id}
              title="Delete photo"
              question={`Do you really want to delete this ${label}? This cannot be undone.`}
            />
          </Group>
        </Stack>
      </Accordion.Panel>
    </Accordion.Item>
  );
}

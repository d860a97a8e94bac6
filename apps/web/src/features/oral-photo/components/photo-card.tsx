import { useState } from 'react';
import { Accordion, Alert, Button, Group, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { OralPhoto } from '@dental/contracts';
import { ConfirmModal } from '../../../components/confirm-modal';
import { LoadingImage } from '../../../components/loading-image';
import { errorMessage } from '../../../lib/api-client';
import { useDeleteOralPhoto } from '../api/delete-oral-photo';

/** One expandable photo card (SPEC §2): image, date, type and note, with download, delete and
 *  edit. The card shows the thumbnail; Download fetches the original. */
export function PhotoCard({ photo, opened }: { photo: OralPhoto; opened: boolean }) {
  const [confirming, setConfirming] = useState(false);
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
            <Button component={Link} to={`${photo.id}/edit`} variant="default" size="xs">
              Edit
            </Button>
            <Button
              color="red"
              variant="outline"
              size="xs"
              onClick={() => {
                deletePhoto.reset();
                setConfirming(true);
              }}
            >
              Delete
            </Button>
          </Group>
        </Stack>
        <ConfirmModal
          opened={confirming}
          onClose={() => {
            setConfirming(false);
          }}
          title="Delete photo"
          confirmLabel="Delete"
          confirmColor="red"
          onConfirm={async () => {
            await deletePhoto.mutateAsync(photo.id);
            setConfirming(false);
          }}
        >
          <Text>Do you really want to delete this {label}? This cannot be undone.</Text>
          {deletePhoto.isError && (
            <Alert color="red" variant="outline" mt="sm">
              {errorMessage(deletePhoto.error)}
            </Alert>
          )}
        </ConfirmModal>
      </Accordion.Panel>
    </Accordion.Item>
  );
}

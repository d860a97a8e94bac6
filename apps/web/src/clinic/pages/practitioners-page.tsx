import { useState } from 'react';
import {
  Avatar,
  Button,
  Group,
  Paper,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { DropZone } from '#web/components/drop-zone/drop-zone';
import { imageUploadRules } from '#web/components/drop-zone/upload-rules';
import { LoadFailed } from '#web/components/load-failed';
import { PageSpinner } from '#web/components/page-spinner';
import { chooseImage } from '#web/lib/choose-image';
import { useDocumentTitle } from '#web/lib/document-title';
import { ConfirmRemoval } from '../components/confirm-removal';
import {
  practitionersQuery,
  useRemovePractitioner,
  useUpdatePractitioner,
} from '../api/clinic-api';
import type { Practitioner } from '@dental/contracts';
import { tell } from '../components/tell';
import { Failure } from '../components/failure';

function PractitionerEditor({
  practitioner,
  onRemove,
}: {
  practitioner: Practitioner;
  onRemove: () => void;
}) {
  const update = useUpdatePractitioner();
  const [name, setName] = useState(practitioner.name);
  const [bio, setBio] = useState(practitioner.bio);
  const [photoError, setPhotoError] = useState<string | null>(null);
  const changePhoto = async (files: File[]) => {
    const [file] = files;
    if (file === undefined) return;
    const chosen = await chooseImage(file);
    if ('error' in chosen) {
      setPhotoError(chosen.error);
      return;
    }
    setPhotoError(null);
    update.mutate({ practitionerId: practitioner.id, photo: chosen.dataUrl });
  };
  return (
    <Paper withBorder p="md" component="article" aria-label={practitioner.name}>
      <Stack gap="sm">
        <Group gap="sm" wrap="wrap">
          <Avatar src={practitioner.photo_url} alt="" size="lg" radius="xl" />
          <Title order={2} size="h3">
            {practitioner.name}
          </Title>
          {!practitioner.has_account && (
            <Text size="sm" fw={600}>
              No staff account
            </Text>
          )}
        </Group>
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            update.mutate(
              { practitionerId: practitioner.id, name: name.trim(), bio: bio.trim() },
              {
                onSuccess: () => {
                  tell(`${name.trim()} is saved.`);
                },
              },
            );
          }}
        >
          <Stack gap="sm">
            <TextInput
              label="Name"
              required
              value={name}
              onChange={(event) => {
                setName(event.currentTarget.value);
              }}
            />
            <Textarea
              label="Bio"
              description="What patients read when they choose a practitioner"
              autosize
              minRows={2}
              value={bio}
              onChange={(event) => {
                setBio(event.currentTarget.value);
              }}
            />
            <Group gap="xs" wrap="wrap">
              <Button type="submit" loading={update.isPending}>
                Save
              </Button>
              <Button variant="outline" color="red" onClick={onRemove}>
                Remove from booking
              </Button>
            </Group>
          </Stack>
        </form>
        <DropZone
          label={`Photo of ${practitioner.name}`}
          rules={imageUploadRules}
          disabled={update.isPending}
          onFiles={(files) => void changePhoto(files)}
        />
        {practitioner.photo_url !== null && (
          <Button
            variant="subtle"
            w="fit-content"
            onClick={() => {
              update.mutate({ practitionerId: practitioner.id, photo: null });
            }}
          >
            Remove the photo
          </Button>
        )}
        <Failure error={photoError ?? update.error} />
      </Stack>
    </Paper>
  );
}

/** Practitioners (admin): the name, bio and photo patients see when booking, and removal from
 *  booking (past consultations keep the name). */
export default function PractitionersPage() {
  useDocumentTitle('Practitioners');
  const list = useQuery(practitionersQuery);
  const remove = useRemovePractitioner();
  const [removing, setRemoving] = useState<Practitioner | null>(null);
  const active = list.data?.results.filter((practitioner) => !practitioner.removed) ?? [];
  return (
    <Stack gap="lg">
      <Title order={1}>Practitioners</Title>
      <Text>Practitioners join by accepting a staff invitation with the practitioner role.</Text>
      {list.isError ? (
        <LoadFailed error={list.error} onRetry={list.refetch} />
      ) : list.data === undefined ? (
        <PageSpinner />
      ) : active.length === 0 ? (
        <Text>No practitioners yet.</Text>
      ) : (
        active.map((practitioner) => (
          <PractitionerEditor
            key={practitioner.id}
            practitioner={practitioner}
            onRemove={() => {
              setRemoving(practitioner);
            }}
          />
        ))
      )}
      <ConfirmRemoval
        item={removing}
        title="Remove this practitioner?"
        confirmLabel="Remove"
        onClose={() => {
          setRemoving(null);
        }}
        remove={(practitioner) => remove.mutateAsync(practitioner.id)}
      >
        Patients can no longer book {removing?.name}. Past consultations keep the name.
      </ConfirmRemoval>
    </Stack>
  );
}

import { useState } from 'react';
import { Stack, Title } from '@mantine/core';
import { useNavigate } from 'react-router';
import { paths } from '#web/app/paths';
import { UploadDisclaimerModal } from '#web/components/upload-disclaimer-modal';
import { useDocumentTitle } from '#web/lib/document-title';
import { useSaveOralPhoto } from './api/save-oral-photo';
import { PhotoForm } from './components/photo-form';

/** Add Photo (docs/product/records.md#add-and-edit-a-photo): the disclaimer is accepted first, then
 *  the form. */
export default function AddOralPhotoPage() {
  useDocumentTitle('Add Photo');
  const navigate = useNavigate();
  const [accepted, setAccepted] = useState(false);
  const save = useSaveOralPhoto();
  return (
    <Stack gap="md">
      <Title order={1}>Add Photo</Title>
      <UploadDisclaimerModal
        opened={!accepted}
        onAccept={() => {
          setAccepted(true);
        }}
        onDecline={() => {
          void navigate(paths.oralPhotos);
        }}
      />
      {accepted && (
        <PhotoForm
          onSubmit={async ({ image_link, ...fields }, onProgress) => {
            await save.mutateAsync({
              body: { ...fields, image_link: image_link ?? '' },
              onProgress,
            });
            await navigate(paths.oralPhotos);
          }}
        />
      )}
    </Stack>
  );
}

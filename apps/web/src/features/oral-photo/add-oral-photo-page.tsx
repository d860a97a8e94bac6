import { Stack, Title } from '@mantine/core';
import { useNavigate } from 'react-router';
import { paths } from '#web/app/paths';
import { savedEntryState } from '#web/components/saved-entry-range';
import { UploadDisclaimerGate } from '#web/components/upload-disclaimer-modal';
import { useDocumentTitle } from '#web/lib/document-title';
import { useSaveOralPhoto } from './api/save-oral-photo';
import { PhotoForm } from './components/photo-form';

/** Add Photo (docs/product/records.md#add-and-edit-a-photo): the disclaimer, once per member, then
 *  the form. */
export default function AddOralPhotoPage() {
  useDocumentTitle('Add Photo');
  const navigate = useNavigate();
  const save = useSaveOralPhoto();
  return (
    <Stack gap="md">
      <Title order={1}>Add Photo</Title>
      <UploadDisclaimerGate
        onDecline={() => {
          void navigate(paths.oralPhotos);
        }}
      >
        <PhotoForm
          onSubmit={async ({ image_link, ...fields }, onProgress) => {
            await save.mutateAsync({
              body: { ...fields, image_link: image_link ?? '' },
              onProgress,
            });
            await navigate(paths.oralPhotos, savedEntryState(fields.shoot_date));
          }}
        />
      </UploadDisclaimerGate>
    </Stack>
  );
}

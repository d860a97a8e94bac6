import { Alert, Stack, Title } from '@mantine/core';
import { useNavigate, useParams } from 'react-router';
import { paths } from '#web/config/paths';
import { savedEntryState } from '#web/components/saved-entry-range';
import { PageSpinner } from '#web/components/page-spinner';
import { errorMessage } from '#web/lib/api-client';
import { useDocumentTitle } from '#web/lib/document-title';
import { useOralPhoto } from '#web/lib/oral-photo-query';
import { useSaveOralPhoto } from './api/save-oral-photo';
import { PhotoForm } from './components/photo-form';

/** Edit Photo (docs/product/records.md#add-and-edit-a-photo): date, type and note; a new image is
 *  optional. */
export default function EditOralPhotoPage() {
  useDocumentTitle('Edit Photo');
  const { oralPhotoId = '' } = useParams();
  const navigate = useNavigate();
  const photo = useOralPhoto(oralPhotoId);
  const save = useSaveOralPhoto();
  return (
    <Stack gap="md">
      <Title order={1}>Edit Photo</Title>
      {photo.isPending && <PageSpinner />}
      {photo.isError && (
        <Alert color="red" variant="outline">
          {errorMessage(photo.error)}
        </Alert>
      )}
      {photo.data && (
        <PhotoForm
          initial={photo.data}
          onSubmit={async (body, onProgress) => {
            await save.mutateAsync({ id: oralPhotoId, body, onProgress });
            await navigate(paths.oralPhotos, savedEntryState(body.shoot_date));
          }}
        />
      )}
    </Stack>
  );
}

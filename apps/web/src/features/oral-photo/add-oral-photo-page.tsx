import { Anchor, Stack, Title } from '@mantine/core';
import { Link, useNavigate } from 'react-router';
import type { OralPhoto } from '@dental/contracts';
import { paths } from '#web/config/paths';
import { savedEntryState } from '#web/components/saved-entry-range';
import { UploadDisclaimerGate } from '#web/components/upload-disclaimer-modal';
import { ApiError, errorMessage } from '#web/lib/api-client';
import { useDocumentTitle } from '#web/lib/document-title';
import { useSaveOralPhoto } from './api/save-oral-photo';
import { PhotoForm } from './components/photo-form';

/** Which X-rays of a zip were saved when one fails, so that the member does not send them twice. */
function partlySaved(error: unknown, saved: number, total: number): ApiError {
  return new ApiError(
    error instanceof ApiError ? error.status : 500,
    `${String(saved)} of ${String(total)} X-rays were saved; the others were not. ${errorMessage(error)} They are in the list; choose the files that are missing to add them.`,
  );
}

/** Add Photo (docs/product/records.md#add-and-edit-a-photo): the disclaimer, once per member, then
 *  the form. */
export default function AddOralPhotoPage() {
  useDocumentTitle('Add Photo');
  const navigate = useNavigate();
  const save = useSaveOralPhoto();
  return (
    <Stack gap="md">
      <Title order={1}>Add Photo</Title>
      <Anchor component={Link} to={paths.oralPhotoCapture}>
        Take photos: five views of your teeth, guided by the camera
      </Anchor>
      <UploadDisclaimerGate
        onDecline={() => {
          void navigate(paths.oralPhotos);
        }}
      >
        <PhotoForm
          onSubmit={async (
            { image_link, more_image_links = [], shoot_date, ...fields },
            onProgress,
          ) => {
            // A zipped DICOM folder is saved X-ray by X-ray, one call each.
            const links = [image_link ?? '', ...more_image_links];
            let saved: OralPhoto | undefined;
            for (const [index, link] of links.entries()) {
              try {
                saved = await save.mutateAsync({
                  // No date: a DICOM file's study date is taken
                  // (docs/product/records.md#dicom-x-rays).
                  body: {
                    ...fields,
                    ...(shoot_date === '' ? {} : { shoot_date }),
                    image_link: link,
                  },
                  onProgress: (sent) => {
                    onProgress((index + sent) / links.length);
                  },
                });
              } catch (error) {
                throw index === 0 ? error : partlySaved(error, index, links.length);
              }
            }
            await navigate(paths.oralPhotos, savedEntryState(saved?.shoot_date ?? ''));
          }}
        />
      </UploadDisclaimerGate>
    </Stack>
  );
}

import { useState, type SyntheticEvent } from 'react';
import { Alert, Button, Group, Image, Radio, Stack, Textarea, TextInput } from '@mantine/core';
import dayjs from 'dayjs';
import { noteMaxLength, photoTypes, type PhotoType } from '@dental/contracts';
import { paths } from '#web/app/paths';
import { DropZone } from '#web/components/drop-zone/drop-zone';
import { UploadProgress } from '#web/components/drop-zone/upload-progress';
import { imageUploadRules } from '#web/components/drop-zone/upload-rules';
import { FormActions } from '#web/components/form-actions';
import { LoadingImage } from '#web/components/loading-image';
import { errorMessage } from '#web/lib/api-client';
import { chooseImage } from '#web/lib/choose-image';
import { dateFormat } from '#web/lib/dates';
import { useLeave } from '#web/lib/use-leave';

export interface PhotoFormValues {
  shoot_date: string;
  photo_type: PhotoType;
  note: string;
  /** A newly chosen image as a data link; undefined keeps the stored one (edit only). */
  image_link?: string;
}

export interface PhotoFormProps {
  initial?: { shoot_date: string; photo_type: PhotoType; note: string; thumbnail_link: string };
  onSubmit: (values: PhotoFormValues, onProgress: (sent: number) => void) => Promise<unknown>;
}

/** Add Photo and Edit Photo (docs/product/records.md#add-and-edit-a-photo): the file picker gives
 *  way to a preview once an image is chosen; the type defaults to X-ray; oversize images are
 *  refused before anything is sent. */
export function PhotoForm({ initial, onSubmit }: PhotoFormProps) {
  const [image, setImage] = useState<string | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [shootDate, setShootDate] = useState(initial?.shoot_date ?? dayjs().format(dateFormat));
  const [photoType, setPhotoType] = useState<PhotoType>(initial?.photo_type ?? 'X-ray');
  const [note, setNote] = useState(initial?.note ?? '');
  const [progress, setProgress] = useState<number | null>(null);
  const [submitError, setSubmitError] = useState<string | null>(null);
  const leave = useLeave(paths.oralPhotos);

  const choose = async (file: File | undefined) => {
    setFileError(null);
    if (file === undefined) return;
    const chosen = await chooseImage(file);
    if ('error' in chosen) setFileError(chosen.error);
    else setImage(chosen.dataUrl);
  };

  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    setSubmitError(null);
    if (image === null && initial === undefined) {
      setFileError('Choose an image to upload.');
      return;
    }
    setProgress(0);
    onSubmit(
      {
        shoot_date: shootDate,
        photo_type: photoType,
        note,
        ...(image === null ? {} : { image_link: image }),
      },
      setProgress,
    ).catch((error: unknown) => {
      setProgress(null);
      setSubmitError(errorMessage(error));
    });
  };

  const uploading = progress !== null;
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        {image === null ? (
          <Stack gap="xs">
            {initial && (
              <LoadingImage src={initial.thumbnail_link} alt="The stored image" height={200} />
            )}
            <DropZone
              label={initial ? 'Replace image (optional)' : 'Image'}
              rules={imageUploadRules}
              onFiles={(files) => {
                void choose(files[0]);
              }}
            />
          </Stack>
        ) : (
          <Stack gap="xs" align="flex-start">
            <Image src={image} alt="Preview of the chosen image" mah={240} w="auto" maw="100%" />
            <Button
              variant="default"
              size="xs"
              disabled={uploading}
              onClick={() => {
                setImage(null);
              }}
            >
              Choose another image
            </Button>
          </Stack>
        )}
        {fileError !== null && (
          <Alert color="red" variant="outline" role="alert">
            {fileError}
          </Alert>
        )}
        <TextInput
          type="date"
          label="Shoot date"
          required
          value={shootDate}
          onChange={(event) => {
            setShootDate(event.currentTarget.value);
          }}
        />
        <Radio.Group
          label="Photo type"
          value={photoType}
          onChange={(value) => {
            setPhotoType(value);
          }}
        >
          <Group mt="xs">
            {photoTypes.map((type) => (
              <Radio key={type} value={type} label={type} />
            ))}
          </Group>
        </Radio.Group>
        <Textarea
          label="Note"
          autosize
          minRows={3}
          maxLength={noteMaxLength}
          value={note}
          onChange={(event) => {
            setNote(event.currentTarget.value);
          }}
        />
        {uploading && <UploadProgress progress={progress} />}
        {submitError !== null && (
          <Alert color="red" variant="outline" role="alert">
            {submitError}
          </Alert>
        )}
        <FormActions submitLabel="Save" pending={uploading} onCancel={leave} />
      </Stack>
    </form>
  );
}

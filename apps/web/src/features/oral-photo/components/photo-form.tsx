import { useState, type SyntheticEvent } from 'react';
import {
  Alert,
  Button,
  Group,
  Image,
  Radio,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import dayjs from 'dayjs';
import { noteMaxLength, photoTypes, type PhotoType } from '@dental/contracts';
import { paths } from '#web/config/paths';
import { DropZone } from '#web/components/drop-zone/drop-zone';
import { UploadProgress } from '#web/components/drop-zone/upload-progress';
import { newPhotoUploadRules, photoUploadRules } from '#web/components/drop-zone/upload-rules';
import { FormActions } from '#web/components/form-actions';
import { LoadingImage } from '#web/components/loading-image';
import { errorMessage } from '#web/lib/api-client';
import { choosePhoto } from '#web/lib/choose-image';
import { dicomsInZip, isZip } from '#web/lib/dicom-zip';
import { dateFormat } from '#web/lib/dates';
import { readImageKind } from '#web/lib/read-image-kind';
import { useLeave } from '#web/lib/use-leave';
import { ToothPicker } from './tooth-chart';

export interface PhotoFormValues {
  /** Empty only for a new DICOM file: its study date is taken (docs/product/records.md#dicom-x-rays). */
  shoot_date: string;
  photo_type: PhotoType;
  note: string;
  /** FDI numbers of the teeth shown, ascending (docs/product/records.md#tooth-tags). */
  teeth: number[];
  /** A newly chosen image as a data link; undefined keeps the stored one (edit only). */
  image_link?: string;
  /** The further X-rays of a zipped DICOM folder, each saved as its own photo (add only). */
  more_image_links?: string[];
}

export interface PhotoFormProps {
  initial?: {
    shoot_date: string;
    photo_type: PhotoType;
    note: string;
    teeth: number[];
    thumbnail_link: string;
  };
  onSubmit: (values: PhotoFormValues, onProgress: (sent: number) => void) => Promise<unknown>;
}

/** Add Photo and Edit Photo (docs/product/records.md#add-and-edit-a-photo): the file picker gives
 *  way to a preview once an image is chosen; the type defaults to X-ray, and a new image's pixels
 *  set it unless the member has chosen; oversize images are refused before anything is sent. */
export function PhotoForm({ initial, onSubmit }: PhotoFormProps) {
  const [image, setImage] = useState<string | null>(null);
  /** Whether the chosen file is a DICOM X-ray, which the browser cannot preview. */
  const [dicom, setDicom] = useState(false);
  /** The X-rays after the first, when a zipped DICOM folder was chosen. */
  const [more, setMore] = useState<string[]>([]);
  const [fileError, setFileError] = useState<string | null>(null);
  /** What the browser did to the chosen image to fit it ('Resized to 2560 × 1920 …'). */
  const [imageNote, setImageNote] = useState<string | null>(null);
  const [shootDate, setShootDate] = useState(initial?.shoot_date ?? dayjs().format(dateFormat));
  const [photoType, setPhotoType] = useState<PhotoType>(initial?.photo_type ?? 'X-ray');
  /** The type read from a new image's pixels (docs/product/records.md#add-and-edit-a-photo), and
   *  whether the member has chosen one themselves: theirs is never overridden. */
  const [readType, setReadType] = useState<PhotoType | null>(null);
  const [typeChosen, setTypeChosen] = useState(false);
  const [note, setNote] = useState(initial?.note ?? '');
  const [teeth, setTeeth] = useState<number[]>(initial?.teeth ?? []);
  const [progress, setProgress] = useState<number | null>(null);
  const [submitError, setSubmitError] = useState<string | null>(null);
  const leave = useLeave(paths.oralPhotos);

  const choose = async (file: File | undefined) => {
    setFileError(null);
    setImageNote(null);
    if (file === undefined) return;
    if (initial === undefined && (await isZip(file))) {
      const found = await dicomsInZip(file);
      if ('error' in found) {
        setFileError(found.error);
        return;
      }
      const [first, ...rest] = found.dataUrls;
      setImage(first ?? null);
      setMore(rest);
      setDicom(true);
      setShootDate('');
      return;
    }
    const chosen = await choosePhoto(file);
    if ('error' in chosen) {
      setFileError(chosen.error);
      return;
    }
    setImage(chosen.dataUrl);
    setMore([]);
    setDicom(chosen.dicom);
    // A new X-ray from a DICOM file is dated by its study unless the member enters a date.
    if (chosen.dicom && initial === undefined) setShootDate('');
    if (!chosen.dicom) setImageNote(chosen.note);
    if (initial === undefined && !chosen.dicom) {
      // The Dental AI form's rule on the same pixels: a colour photo is not saved as an X-ray.
      const kind = await readImageKind(chosen.image);
      const read = kind === null ? null : kind === 'xray' ? 'X-ray' : 'Photo';
      setReadType(read);
      if (read !== null && !typeChosen) setPhotoType(read);
    }
  };
  const dateFromFile = dicom && initial === undefined;

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
        teeth,
        ...(image === null ? {} : { image_link: image }),
        ...(more.length === 0 ? {} : { more_image_links: more }),
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
              rules={initial ? photoUploadRules : newPhotoUploadRules}
              onFiles={(files) => {
                void choose(files[0]);
              }}
            />
          </Stack>
        ) : (
          <Stack gap="xs" align="flex-start">
            {dicom ? (
              <Alert
                color="blue"
                variant="light"
                title={
                  more.length === 0
                    ? 'DICOM X-ray chosen'
                    : `${String(more.length + 1)} DICOM X-rays found in the zip file`
                }
              >
                {more.length === 0
                  ? 'The X-ray is turned into an image when you save it.'
                  : 'Each is saved as its own X-ray, with the date, type, note and teeth below, and turned into an image.'}{' '}
                The original DICOM file is kept, and you can download it from the photo later.
              </Alert>
            ) : (
              <Image src={image} alt="Preview of the chosen image" mah={240} w="auto" maw="100%" />
            )}
            {imageNote !== null && (
              <Text size="sm" role="status">
                {imageNote}
              </Text>
            )}
            <Button
              variant="default"
              size="xs"
              disabled={uploading}
              onClick={() => {
                setImage(null);
                setMore([]);
                setDicom(false);
                setReadType(null);
                setImageNote(null);
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
          required={!dateFromFile}
          description={
            dateFromFile ? 'Leave empty to use the study date from the DICOM file.' : undefined
          }
          value={shootDate}
          onChange={(event) => {
            setShootDate(event.currentTarget.value);
          }}
        />
        <Radio.Group
          label="Photo type"
          description={
            readType === null
              ? undefined
              : `From the image, this looks like ${readType === 'Photo' ? 'a colour photo' : 'an X-ray'}. Change it if that is wrong.`
          }
          value={photoType}
          onChange={(value) => {
            setPhotoType(value);
            setTypeChosen(true);
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
        <ToothPicker value={teeth} onChange={setTeeth} disabled={uploading} />
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

import {
  acceptedImageTypes,
  dicomUploadLimit,
  estimateDataUrlBytes,
  imageMaxBytes,
  imageTooLargeMessage,
  unsupportedImageMessage,
} from '@dental/contracts';
import { fitImage, heicTypes, isHeic } from './fit-image';
import { readAsDataUrl } from './read-file';

/** What the image pickers offer the browser's file chooser: the API's types, and HEIC photos,
 *  which the browser turns into JPEG (docs/decisions/phone-photos.md). */
export const chooserImageTypes = [...acceptedImageTypes, ...heicTypes, '.heic', '.heif'];

export type ChosenImage =
  | {
      dataUrl: string;
      /** The image that is sent: the file itself, or the JPEG written from it. */
      image: Blob;
      /** What was done to it, for the member ('Resized to 2560 × 1920 …'); null when nothing. */
      note: string | null;
    }
  | { error: string };

/** A chosen image as the API takes it, or why it cannot be sent: JPEG, PNG or WebP within 5 MB as
 *  it is; a HEIC photo, or an image over 5 MB, written anew as a JPEG that fits; the size estimated
 *  from the base64 length before anything is sent (docs/product/records.md#uploads). */
export async function chooseImage(file: File): Promise<ChosenImage> {
  const heic = await isHeic(file);
  if (!heic && !(acceptedImageTypes as readonly string[]).includes(file.type)) {
    return { error: unsupportedImageMessage };
  }
  const fitted =
    heic || file.size > imageMaxBytes ? await fitImage(file, heic) : { image: file, note: null };
  if ('error' in fitted) return fitted;
  const dataUrl = await readAsDataUrl(fitted.image);
  if (estimateDataUrlBytes(dataUrl) > imageMaxBytes) return { error: imageTooLargeMessage };
  return { dataUrl, ...fitted };
}

export type ChosenPhoto =
  | (Extract<ChosenImage, { dataUrl: string }> & { dicom: false })
  | { dataUrl: string; dicom: true }
  | { error: string };

/** A DICOM file says so at byte 128, whatever its name: files on a clinic's disc often have none. */
async function isDicom(file: File): Promise<boolean> {
  const marker = await file.slice(128, 132).arrayBuffer();
  return new TextDecoder('latin1').decode(marker) === 'DICM';
}

/** A photo or X-ray: an image as chooseImage takes it, or a DICOM file within its 10 MB, sent as
 *  `data:application/dicom` (docs/product/records.md#dicom-x-rays). */
export async function choosePhoto(file: File): Promise<ChosenPhoto> {
  if (!(await isDicom(file))) {
    const chosen = await chooseImage(file);
    return 'error' in chosen ? chosen : { ...chosen, dicom: false };
  }
  const read = await readAsDataUrl(file);
  const dataUrl = `data:application/dicom;base64,${read.slice(read.indexOf(',') + 1)}`;
  if (estimateDataUrlBytes(dataUrl) > dicomUploadLimit.maxBytes) {
    return { error: dicomUploadLimit.message };
  }
  return { dataUrl, dicom: true };
}

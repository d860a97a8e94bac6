import {
  acceptedImageTypes,
  dicomUploadLimit,
  estimateDataUrlBytes,
  imageMaxBytes,
  imageTooLargeMessage,
  unsupportedImageMessage,
} from '@dental/contracts';
import { readAsDataUrl } from './read-file';

/** What the image pickers (photos, Dental AI) offer the browser's file chooser. */
export const imageAccept = acceptedImageTypes.join(',');

export type ChosenImage = { dataUrl: string } | { error: string };

/** A chosen image as the API takes it, or why it cannot be sent: JPEG, PNG or WebP within 5 MB, the
 *  size estimated from the base64 length before anything is sent
 *  (docs/product/records.md#uploads). */
export async function chooseImage(file: File): Promise<ChosenImage> {
  if (!(acceptedImageTypes as readonly string[]).includes(file.type)) {
    return { error: unsupportedImageMessage };
  }
  const dataUrl = await readAsDataUrl(file);
  if (estimateDataUrlBytes(dataUrl) > imageMaxBytes) return { error: imageTooLargeMessage };
  return { dataUrl };
}

export type ChosenPhoto = { dataUrl: string; dicom: boolean } | { error: string };

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

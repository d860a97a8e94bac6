import {
  acceptedImageTypes,
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

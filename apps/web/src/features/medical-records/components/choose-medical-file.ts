import {
  acceptedImageTypes,
  estimateDataUrlBytes,
  pdfUploadLimit,
  unsupportedMedicalFileMessage,
  type NewMedicalFileRequest,
} from '@dental/contracts';
import { chooseImage } from '#web/lib/choose-image';
import { isHeic } from '#web/lib/fit-image';
import { readAsDataUrl } from '#web/lib/read-file';

export type ChosenFile =
  | {
      file: NewMedicalFileRequest;
      /** What the browser did to an image to fit it ('Resized to 2560 × 1920 …'), or null. */
      note: string | null;
    }
  | { error: string };

/** A chosen file as the API takes it, or why it cannot be sent: a PDF within its 10 MB, or an
 *  image as the photo forms take it (a HEIC photo or one over 5 MB written anew as a JPEG, named
 *  so); sizes estimated from the base64 length before sending (docs/product/records.md#uploads). */
export async function chooseMedicalFile(file: File): Promise<ChosenFile> {
  if (file.type === 'application/pdf') {
    const dataUrl = await readAsDataUrl(file);
    if (estimateDataUrlBytes(dataUrl) > pdfUploadLimit.maxBytes) {
      return { error: pdfUploadLimit.message };
    }
    return { file: { file_name: file.name, file_link: dataUrl }, note: null };
  }
  if (!(acceptedImageTypes as readonly string[]).includes(file.type) && !(await isHeic(file))) {
    return { error: unsupportedMedicalFileMessage };
  }
  const chosen = await chooseImage(file);
  if ('error' in chosen) return chosen;
  const fileName = chosen.image === file ? file.name : `${file.name.replace(/\.[^.]*$/, '')}.jpg`;
  return { file: { file_name: fileName, file_link: chosen.dataUrl }, note: chosen.note };
}

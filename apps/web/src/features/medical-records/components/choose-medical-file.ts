import {
  acceptedMedicalFileTypes,
  estimateDataUrlBytes,
  unsupportedMedicalFileMessage,
  uploadLimitFor,
  type AcceptedMedicalFileType,
} from '@dental/contracts';
import { readAsDataUrl } from '#web/lib/read-file';

export type ChosenFile = { file_name: string; file_link: string } | { error: string };

function isAccepted(type: string): type is AcceptedMedicalFileType {
  return (acceptedMedicalFileTypes as readonly string[]).includes(type);
}

/** A chosen file as the API takes it, or why it cannot be sent: images and PDF only, each within
 *  its size limit, estimated from the base64 length before sending
 *  (docs/product/records.md#uploads). */
export async function chooseMedicalFile(file: File): Promise<ChosenFile> {
  if (!isAccepted(file.type)) return { error: unsupportedMedicalFileMessage };
  const dataUrl = await readAsDataUrl(file);
  const limit = uploadLimitFor(file.type);
  if (estimateDataUrlBytes(dataUrl) > limit.maxBytes) return { error: limit.message };
  return { file_name: file.name, file_link: dataUrl };
}

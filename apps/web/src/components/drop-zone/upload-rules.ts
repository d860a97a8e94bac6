import {
  acceptedImageTypes,
  acceptedMedicalFileTypes,
  imageMaxBytes,
  pdfMaxBytes,
} from '@dental/contracts';

const MB = 1024 * 1024;

/** What a drop zone accepts: the chooser's types and the sentence that names them and their size
 *  limits, both read from the upload contracts (docs/product/records.md#uploads). */
export interface UploadRules {
  accept: readonly string[];
  description: string;
}

const images = `JPEG, PNG or WebP images up to ${String(imageMaxBytes / MB)} MB`;

/** Photos and X-rays. */
export const imageUploadRules: UploadRules = { accept: acceptedImageTypes, description: images };

/** Files attached to a medical record. */
export const medicalFileUploadRules: UploadRules = {
  accept: acceptedMedicalFileTypes,
  description: `${images}, or PDF documents up to ${String(pdfMaxBytes / MB)} MB`,
};

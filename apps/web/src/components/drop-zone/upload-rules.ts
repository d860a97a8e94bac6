import { dicomUploadLimit, imageMaxBytes, pdfMaxBytes } from '@dental/contracts';
import { chooserImageTypes } from '#web/lib/choose-image';

const MB = 1024 * 1024;

/** What a drop zone accepts: the chooser's types and the sentence that names them and their size
 *  limits, both read from the upload contracts (docs/product/records.md#uploads). */
export interface UploadRules {
  accept: readonly string[];
  description: string;
}

// A larger photo is made smaller in the browser (docs/decisions/phone-photos.md).
const images = `JPEG, PNG, WebP or HEIC images up to ${String(imageMaxBytes / MB)} MB (larger photos are resized)`;

/** Images where a DICOM file is not taken (Dental AI). */
export const imageUploadRules: UploadRules = { accept: chooserImageTypes, description: images };

const dicom = `DICOM X-rays (.dcm) up to ${String(dicomUploadLimit.maxBytes / MB)} MB`;

/** Replacing a photo's image: an image, or an X-ray as a DICOM file
 *  (docs/product/records.md#dicom-x-rays). */
export const photoUploadRules: UploadRules = {
  accept: [...chooserImageTypes, 'application/dicom', '.dcm'],
  description: `${images}, or ${dicom}`,
};

/** Adding photos: also a clinic's DICOM folder as a zip, each X-ray in it saved on its own. */
export const newPhotoUploadRules: UploadRules = {
  accept: [...photoUploadRules.accept, 'application/zip', '.zip'],
  description: `${images}, or ${dicom} (also a zipped DICOM folder)`,
};

/** Files attached to a medical record. */
export const medicalFileUploadRules: UploadRules = {
  accept: [...chooserImageTypes, 'application/pdf'],
  description: `${images}, or PDF documents up to ${String(pdfMaxBytes / MB)} MB`,
};

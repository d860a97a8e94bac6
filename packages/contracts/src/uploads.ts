/**
 * Upload limits, accepted types and their messages (docs/product/records.md#uploads): the one
 * source that the API's upload acceptance and the web forms both read.
 */

/** 1 MB here is 1 MiB, 1,048,576 bytes (docs/decisions/upload-size-limits.md). */
const MB = 1024 * 1024;

/** Photos, X-rays, Dental AI images and images attached to medical records. */
export const imageMaxBytes = 5 * MB;
/** PDF documents attached to medical records. */
export const pdfMaxBytes = 10 * MB;

export const imageTooLargeMessage = 'File size exceeds 5 MB. Please upload smaller file';
export const pdfTooLargeMessage = 'File size exceeds 10 MB. Please upload smaller file';

/** HEIC is left out: the sharp build here cannot decode HEVC
 *  (docs/decisions/accepted-upload-types.md). */
export const acceptedImageTypes = ['image/jpeg', 'image/png', 'image/webp'] as const;
export type AcceptedImageType = (typeof acceptedImageTypes)[number];

export const acceptedMedicalFileTypes = [...acceptedImageTypes, 'application/pdf'] as const;
export type AcceptedMedicalFileType = (typeof acceptedMedicalFileTypes)[number];

export const unsupportedImageMessage =
  'Unsupported file type. Please upload a JPEG, PNG or WebP image.';
export const unsupportedMedicalFileMessage =
  'Unsupported file type. Please upload a JPEG, PNG or WebP image, or a PDF document.';
/** An image declaring more pixels than may be decoded (docs/decisions/upload-size-limits.md). */
export function tooManyPixelsMessage(maxPixels: number): string {
  return `The image is too large. Please upload an image of at most ${String(Math.floor(maxPixels / 1_000_000))} megapixels.`;
}
/** Bytes that start like an image but do not decode, on the server or in the browser. */
export const unreadableImageMessage =
  'The image could not be read. It may be damaged; please choose another file.';

export interface UploadLimit {
  maxBytes: number;
  /** Shown when a file is larger than `maxBytes`. */
  message: string;
}

export const imageUploadLimit: UploadLimit = {
  maxBytes: imageMaxBytes,
  message: imageTooLargeMessage,
};
export const pdfUploadLimit: UploadLimit = { maxBytes: pdfMaxBytes, message: pdfTooLargeMessage };

/** A DICOM X-ray (`.dcm`) added as a photo: uncompressed panoramic images are larger than 5 MB
 *  (docs/decisions/dicom-import.md). */
export const dicomUploadLimit: UploadLimit = {
  maxBytes: pdfMaxBytes,
  message: 'File size exceeds 10 MB. Please upload smaller file',
};

export function uploadLimitFor(type: AcceptedMedicalFileType): UploadLimit {
  return type === 'application/pdf' ? pdfUploadLimit : imageUploadLimit;
}

/**
 * The number of bytes a base64 data link (`data:<type>;base64,<payload>`) decodes to, computed from
 * the payload's length alone so that a form can check it without decoding
 * (docs/product/records.md#uploads). Exact for a well-formed link; the API refuses links that are
 * not.
 */
export function estimateDataUrlBytes(dataUrl: string): number {
  const payloadLength = dataUrl.length - dataUrl.indexOf(',') - 1;
  const padding = dataUrl.endsWith('==') ? 2 : dataUrl.endsWith('=') ? 1 : 0;
  return Math.floor(((payloadLength - padding) * 3) / 4);
}

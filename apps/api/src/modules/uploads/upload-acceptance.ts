import { createHash } from 'node:crypto';
import { fileTypeFromBuffer } from 'file-type';
import sharp, { type Sharp } from 'sharp';
import type { RawRgbImage } from '#api/lib/raw-image';
import {
  dicomUploadLimit,
  estimateDataUrlBytes,
  imageUploadLimit,
  pdfUploadLimit,
  unsupportedImageMessage,
  unreadableImageMessage,
  unsupportedMedicalFileMessage,
  uploadLimitFor,
  type AcceptedImageType,
  type AcceptedMedicalFileType,
  type PhotoType,
  type UploadLimit,
} from '@dental/contracts';
import { BadRequest } from '#api/domain-errors';
import type { ErrorLogger } from '#api/logger';
import { DecodePool } from './decode-pool';
import { zippedDicomMessage } from './dicom';
import { DicomReader } from './dicom-reader';
import { PayloadTooLarge, tooManyPixels, UnsupportedMediaType } from './upload-errors';

export type FileExtension = 'jpg' | 'png' | 'webp' | 'pdf';

/** A small WebP of an image for list views (docs/decisions/image-thumbnails.md). */
export interface Thumbnail {
  bytes: Buffer;
  contentType: 'image/webp';
  width: number;
  height: number;
}

interface AcceptedBytes {
  /** What to store: for images, re-encoded upright without metadata. */
  bytes: Buffer;
  /** `bytes.length`, what the storage quota counts. */
  size: number;
  /** Hex SHA-256 of `bytes`. */
  sha256: string;
  extension: FileExtension;
}

/** An image turned upright by its EXIF orientation and re-encoded without metadata. */
export interface UprightImage extends AcceptedBytes {
  kind: 'image';
  contentType: AcceptedImageType;
  width: number;
  height: number;
}

/** An image for Dental AI: its upright pixels for the model, and its stored copy on demand. */
export interface ImageForDetection {
  pixels: RawRgbImage;
  encode: () => Promise<UprightImage>;
}

export interface AcceptedImage extends UprightImage {
  thumbnail: Thumbnail;
}

/** A DICOM file as sent, kept beside its rendering (docs/decisions/dicom-import.md). */
export interface DicomOriginal {
  bytes: Buffer;
  size: number;
  sha256: string;
  contentType: 'application/dicom';
  extension: 'dcm';
  /** YYYY-MM-DD, when the file holds a valid study date. */
  studyDate: string | undefined;
  /** What the modality stands for, when the file names one. */
  photoType: PhotoType | undefined;
}

/** A photo or X-ray: an image, or a DICOM file rendered to a PNG with its original kept. */
export type AcceptedPhoto = AcceptedImage & { dicom?: DicomOriginal };

export interface AcceptedPdf extends AcceptedBytes {
  kind: 'pdf';
  contentType: 'application/pdf';
}

export type AcceptedMedicalFile = (AcceptedImage | AcceptedPdf) & {
  /** The user's name for the file, made safe and ending in the detected type's extension. */
  fileName: string;
};

export interface UploadAcceptanceOptions {
  /** Largest image accepted, in pixels (width × height); default 40 megapixels
   *  (docs/decisions/upload-decoding-limits.md). */
  maxImagePixels?: number;
  /** Bounds how many images are decoded at once; one shared by every feature by default. */
  decodePool?: DecodePool;
  /** Longest side of a thumbnail in pixels; default 320. */
  thumbnailSize?: number;
  /** Longest a DICOM file may take to read once its worker thread has started it; default 10 s
   *  (docs/decisions/dicom-import.md). */
  dicomTimeLimitMs?: number;
  /** The JS heap of a DICOM worker thread in MiB; default 256. */
  dicomHeapLimitMb?: number;
  /** Where a DICOM worker thread's failure outside a read is reported; stderr by default. */
  log?: ErrorLogger;
}

export const malformedUploadMessage = 'The file could not be read. Please choose it again.';

const maxHeaderLength = 256;
const base64Payload = /^[A-Za-z0-9+/]+={0,2}$/;

// file-type names an animated PNG image/apng; it is still a PNG that every decoder reads.
const acceptedDetections = new Map<string, AcceptedMedicalFileType>([
  ['image/jpeg', 'image/jpeg'],
  ['image/png', 'image/png'],
  ['image/apng', 'image/png'],
  ['image/webp', 'image/webp'],
  ['application/pdf', 'application/pdf'],
]);

const imageFormats: Record<
  AcceptedImageType,
  { extension: FileExtension; encode: (image: Sharp) => Sharp }
> = {
  'image/jpeg': { extension: 'jpg', encode: (image) => image.jpeg({ quality: 92 }) },
  'image/png': { extension: 'png', encode: (image) => image.png() },
  'image/webp': { extension: 'webp', encode: (image) => image.webp({ quality: 92 }) },
};

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * Decodes a `data:<type>;base64,<payload>` link. The size is checked from the payload's length
 * before anything is decoded, so an oversized upload costs no memory beyond the request itself.
 */
function decodeDataUrl(dataUrl: string, limit: UploadLimit): Buffer {
  const comma = dataUrl.indexOf(',');
  if (
    comma === -1 ||
    comma > maxHeaderLength ||
    !/^data:[^,]*;base64$/i.test(dataUrl.slice(0, comma))
  ) {
    throw new BadRequest(malformedUploadMessage);
  }
  if (estimateDataUrlBytes(dataUrl) > limit.maxBytes) throw new PayloadTooLarge(limit.message);
  const payload = dataUrl.slice(comma + 1);
  // Strict: Buffer.from would silently skip characters that are not base64.
  if (payload.length % 4 !== 0 || !base64Payload.test(payload)) {
    throw new BadRequest(malformedUploadMessage);
  }
  return Buffer.from(payload, 'base64');
}

/** The type the bytes say they are, if it is one we accept; names and claimed types are ignored. */
async function detectType(bytes: Buffer): Promise<AcceptedMedicalFileType | undefined> {
  const detected = await fileTypeFromBuffer(bytes);
  return detected && acceptedDetections.get(detected.mime);
}

function acceptPdf(bytes: Buffer): AcceptedPdf {
  return {
    kind: 'pdf',
    contentType: 'application/pdf',
    bytes,
    size: bytes.length,
    sha256: sha256(bytes),
    extension: 'pdf',
  };
}

const extensionAliases: Record<FileExtension, string[]> = {
  jpg: ['jpg', 'jpeg'],
  png: ['png'],
  webp: ['webp'],
  pdf: ['pdf'],
};
/**
 * Control characters, bidirectional overrides (which can disguise an extension) and lone
 * surrogates (which cannot be encoded in a header) have no place in a file name.
 */
function isSafeInName(character: string): boolean {
  const code = character.codePointAt(0) ?? 0;
  return !(
    code < 0x20 ||
    (code >= 0x7f && code <= 0x9f) ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069) ||
    (code >= 0xd800 && code <= 0xdfff)
  );
}
const maxStemLength = 200;

/**
 * The name a medical file is kept and downloaded under: the last path segment of what the user
 * sent, without unsafe characters, ending in the extension of the detected type — kept when it
 * already names that type, otherwise put in place of a letter-led extension or appended
 * (docs/decisions/accepted-upload-types.md).
 */
export function medicalFileName(given: string, extension: FileExtension): string {
  // Array.from walks code points, so a lone surrogate is one element and a pair stays whole.
  const cleaned = Array.from(given.split(/[/\\]/).at(-1) ?? '')
    .filter(isSafeInName)
    .join('')
    .trim()
    .replace(/^\.+/, '');
  const match = /^(.+)\.([A-Za-z][A-Za-z0-9]{0,4})$/.exec(cleaned);
  const stem = (match?.[1] ?? cleaned).trim();
  const givenExtension = match?.[2];
  const keptExtension =
    givenExtension !== undefined &&
    extensionAliases[extension].includes(givenExtension.toLowerCase())
      ? givenExtension
      : extension;
  const shortStem = Array.from(stem).slice(0, maxStemLength).join('').trim();
  return `${shortStem === '' ? 'file' : shortStem}.${keptExtension}`;
}

/**
 * The one way an uploaded file enters the system, for every feature
 * (docs/decisions/architecture.md#api-conventions): data link decoded and size-checked, type
 * decided by the bytes, images cleaned of metadata and given a thumbnail. Failures are domain
 * errors: 400 malformed, 413 too large, 415 not accepted.
 */
export class UploadAcceptance {
  private readonly maxImagePixels: number;
  private readonly thumbnailSize: number;
  private readonly decodePool: DecodePool;
  private readonly dicomReader: DicomReader;
  /** Tolerate decoder warnings (phones write slightly odd JPEGs); refuse only real errors. The
   *  pixel limit holds in the decoder too, whatever the header claimed. */
  private readonly decodeOptions: { failOn: 'error'; limitInputPixels: number };

  constructor(options: UploadAcceptanceOptions = {}) {
    this.maxImagePixels = options.maxImagePixels ?? 40_000_000;
    this.thumbnailSize = options.thumbnailSize ?? 320;
    this.decodePool = options.decodePool ?? new DecodePool();
    // Files are read inside a decode slot, so a thread per slot never leaves a read waiting.
    this.dicomReader = new DicomReader({
      threads: this.decodePool.concurrency,
      timeLimitMs: options.dicomTimeLimitMs ?? 10_000,
      heapLimitMb: options.dicomHeapLimitMb ?? 256,
      log: options.log,
    });
    this.decodeOptions = { failOn: 'error', limitInputPixels: this.maxImagePixels };
  }

  /** A photo or X-ray: JPEG, PNG or WebP up to 5 MB, with its thumbnail for the lists. */
  async acceptImage(dataUrl: string): Promise<AcceptedImage> {
    const { bytes, type } = await this.imageBytes(dataUrl);
    return this.processImage(bytes, type);
  }

  /**
   * A photo or X-ray: those images up to 5 MB, or a DICOM file up to 10 MB rendered to a PNG
   * (first frame, windowed, without any of the file's attributes) with its thumbnail.
   */
  async acceptPhotoOrDicom(dataUrl: string): Promise<AcceptedPhoto> {
    // The larger limit bounds the decoding; an image's own limit applies once the type is known.
    return this.photoOrDicom(decodeDataUrl(dataUrl, dicomUploadLimit), false);
  }

  /**
   * A photo or X-ray read from an imported record (docs/decisions/data-import.md): the checks of
   * an upload, and an image that holds no metadata and no turn (as this app stores them) kept
   * byte for byte, so that a record moved between installations keeps its files unchanged.
   */
  async acceptImportedPhoto(bytes: Buffer): Promise<AcceptedPhoto> {
    if (bytes.length > dicomUploadLimit.maxBytes)
      throw new PayloadTooLarge(dicomUploadLimit.message);
    return this.photoOrDicom(bytes, true);
  }

  private async photoOrDicom(bytes: Buffer, keepClean: boolean): Promise<AcceptedPhoto> {
    const detected = await fileTypeFromBuffer(bytes);
    if (detected?.mime === 'application/dicom') return this.acceptDicom(bytes);
    if (detected?.mime === 'application/zip') throw new UnsupportedMediaType(zippedDicomMessage);
    const type = detected && acceptedDetections.get(detected.mime);
    if (type === undefined || type === 'application/pdf') {
      throw new UnsupportedMediaType(unsupportedImageMessage);
    }
    if (bytes.length > imageUploadLimit.maxBytes) {
      throw new PayloadTooLarge(imageUploadLimit.message);
    }
    return this.processImage(bytes, type, keepClean);
  }

  private acceptDicom(bytes: Buffer): Promise<AcceptedPhoto> {
    return this.decodePool.run(async () => {
      const rendered = await this.dicomReader.read(bytes, this.maxImagePixels);
      // One pipeline each over the same pixels: sharp's clone() copies its input on this thread,
      // a second for 40 megapixels.
      const image = () => {
        const raw = sharp(rendered.pixels, {
          raw: { width: rendered.width, height: rendered.height, channels: rendered.channels },
        });
        // sharp writes sRGB unless told: a greyscale X-ray stays a one-channel PNG.
        return rendered.channels === 1 ? raw.toColourspace('b-w') : raw;
      };
      const [stored, thumbnail] = await Promise.all([
        this.encodeUpright(image(), 'image/png'),
        this.thumbnailOf(image()),
      ]);
      return {
        ...stored,
        thumbnail,
        dicom: {
          bytes,
          size: bytes.length,
          sha256: sha256(bytes),
          contentType: 'application/dicom',
          extension: 'dcm',
          studyDate: rendered.studyDate,
          photoType: rendered.photoType,
        },
      };
    });
  }

  /**
   * The same checks for an image no list shows (Dental AI), without a thumbnail (encoding one
   * costs more than the rest of the acceptance together) and decoded once: the model reads the
   * upright pixels while `encode` makes the stored copy from them, without metadata. A grey
   * image is stored grey.
   */
  async acceptImageForDetection(dataUrl: string): Promise<ImageForDetection> {
    return this.imageForDetection(await this.imageBytes(dataUrl));
  }

  /** A photo or X-ray already stored (Dental AI on it, no second upload): its bytes were checked
   *  when it was stored, and are checked again the same way here. */
  async acceptStoredImageForDetection(bytes: Buffer): Promise<ImageForDetection> {
    return this.imageForDetection(await this.typedImage(bytes));
  }

  private async imageForDetection({
    bytes,
    type,
  }: {
    bytes: Buffer;
    type: AcceptedImageType;
  }): Promise<ImageForDetection> {
    const { channels } = await this.checkPixels(bytes);
    const { pixels, grey } = await this.decodePool.run(async () => {
      try {
        const { data, info } = await this.upright(bytes)
          .toColourspace('srgb')
          .removeAlpha()
          .raw({ depth: 'uchar' })
          .toBuffer({ resolveWithObject: true });
        const size = { width: info.width, height: info.height, channels: 3 as const };
        // One channel, or one and alpha: grey.
        return { pixels: { data, info: size }, grey: channels <= 2 };
      } catch (error) {
        throw new UnsupportedMediaType(unreadableImageMessage, error);
      }
    });
    return {
      pixels,
      // Raw pixels need no decoding, so no decode slot.
      encode: () => {
        const raw = sharp(pixels.data, { raw: pixels.info });
        return this.encodeUpright(grey ? raw.toColourspace('b-w') : raw, type);
      },
    };
  }

  private async imageBytes(dataUrl: string): Promise<{ bytes: Buffer; type: AcceptedImageType }> {
    return this.typedImage(decodeDataUrl(dataUrl, imageUploadLimit));
  }

  /** An image of a type we accept (by its bytes), else 415. */
  private async typedImage(bytes: Buffer): Promise<{ bytes: Buffer; type: AcceptedImageType }> {
    const type = await detectType(bytes);
    if (type === undefined || type === 'application/pdf') {
      throw new UnsupportedMediaType(unsupportedImageMessage);
    }
    return { bytes, type };
  }

  /** Ends the DICOM worker threads. */
  async close(): Promise<void> {
    await this.dicomReader.close();
  }

  /** A medical or insurance record's file: those images up to 5 MB, or a PDF up to 10 MB. */
  async acceptMedicalFile(dataUrl: string, fileName: string): Promise<AcceptedMedicalFile> {
    // The larger limit bounds the decoding; the type's own limit applies once the type is known.
    return this.medicalFile(decodeDataUrl(dataUrl, pdfUploadLimit), fileName, false);
  }

  /** A record's file read from an imported record: as `acceptImportedPhoto`, a clean image is
   *  kept byte for byte. */
  async acceptImportedMedicalFile(bytes: Buffer, fileName: string): Promise<AcceptedMedicalFile> {
    if (bytes.length > pdfUploadLimit.maxBytes) throw new PayloadTooLarge(pdfUploadLimit.message);
    return this.medicalFile(bytes, fileName, true);
  }

  private async medicalFile(
    bytes: Buffer,
    fileName: string,
    keepClean: boolean,
  ): Promise<AcceptedMedicalFile> {
    const type = await detectType(bytes);
    if (type === undefined) throw new UnsupportedMediaType(unsupportedMedicalFileMessage);
    const limit = uploadLimitFor(type);
    if (bytes.length > limit.maxBytes) throw new PayloadTooLarge(limit.message);
    const file =
      type === 'application/pdf'
        ? acceptPdf(bytes)
        : await this.processImage(bytes, type, keepClean);
    return { ...file, fileName: medicalFileName(fileName, file.extension) };
  }

  /** `keepClean`: an image without metadata or a turn is stored as it came, not re-encoded. */
  private async processImage(
    bytes: Buffer,
    contentType: AcceptedImageType,
    keepClean = false,
  ): Promise<AcceptedImage> {
    const header = await this.checkPixels(bytes);
    return this.decodePool.run(async () => {
      const upright = this.upright(bytes);
      const [stored, thumbnail] = await Promise.all([
        keepClean && header.clean
          ? this.asStored(bytes, contentType, header)
          : this.encodeUpright(upright.clone(), contentType),
        this.thumbnailOf(upright.clone()),
      ]);
      return { ...stored, thumbnail };
    });
  }

  /** The image's own bytes as the stored copy; its pixels were decoded for the thumbnail. */
  private asStored(
    bytes: Buffer,
    contentType: AcceptedImageType,
    header: { width: number; height: number },
  ): UprightImage {
    return {
      kind: 'image',
      contentType,
      bytes,
      size: bytes.length,
      sha256: sha256(bytes),
      extension: imageFormats[contentType].extension,
      width: header.width,
      height: header.height,
    };
  }

  /** Reads the header only: a small file can claim a huge canvas (a decompression bomb). Answers
   *  the header's channel count. */
  private async checkPixels(
    bytes: Buffer,
  ): Promise<{ channels: number; width: number; height: number; clean: boolean }> {
    let header;
    try {
      // The header alone, without the decoder's limit, so that the refusal can say why.
      header = await sharp(bytes, { ...this.decodeOptions, limitInputPixels: false }).metadata();
    } catch (error) {
      throw new UnsupportedMediaType(unreadableImageMessage, error);
    }
    if (header.width * header.height > this.maxImagePixels) {
      throw tooManyPixels(this.maxImagePixels);
    }
    const { exif, icc, iptc, xmp, orientation } = header;
    return {
      channels: header.channels,
      width: header.width,
      height: header.height,
      // What an upload would strip or apply: location and camera details, a colour profile, a turn.
      clean:
        [exif, icc, iptc, xmp].every((block) => block === undefined) &&
        (orientation === undefined || orientation === 1),
    };
  }

  /**
   * Turned upright by its EXIF orientation; written later without any metadata: no location, no
   * camera details, and no orientation tag left to apply twice
   * (docs/decisions/photo-orientation-and-metadata.md).
   */
  private upright(bytes: Buffer): Sharp {
    return sharp(bytes, this.decodeOptions).autoOrient();
  }

  private async encodeUpright(
    upright: Sharp,
    contentType: AcceptedImageType,
  ): Promise<UprightImage> {
    const format = imageFormats[contentType];
    try {
      const stored = await format.encode(upright).toBuffer({ resolveWithObject: true });
      return {
        kind: 'image',
        contentType,
        bytes: stored.data,
        size: stored.data.length,
        sha256: sha256(stored.data),
        extension: format.extension,
        width: stored.info.width,
        height: stored.info.height,
      };
    } catch (error) {
      throw new UnsupportedMediaType(unreadableImageMessage, error);
    }
  }

  private async thumbnailOf(upright: Sharp): Promise<Thumbnail> {
    try {
      const thumbnail = await upright
        .resize({
          width: this.thumbnailSize,
          height: this.thumbnailSize,
          fit: 'inside',
          withoutEnlargement: true,
        })
        .webp({ quality: 75 })
        .toBuffer({ resolveWithObject: true });
      return {
        bytes: thumbnail.data,
        contentType: 'image/webp',
        width: thumbnail.info.width,
        height: thumbnail.info.height,
      };
    } catch (error) {
      throw new UnsupportedMediaType(unreadableImageMessage, error);
    }
  }
}

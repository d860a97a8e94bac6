import dcmjs from 'dcmjs';
import sharp from 'sharp';
import type { PhotoType } from '@dental/contracts';
import { checkDicomStructure } from './dicom-structure';
import { tooManyPixels, UnsupportedMediaType } from './upload-errors';

// dcmjs warns on the console about odd files; nothing from a member's file goes to the logs.
dcmjs.log.setLevel('silent');

export const unreadableDicomMessage =
  'The DICOM file could not be read. It may be damaged; please choose another file.';
export const dicomWithoutImageMessage =
  'This DICOM file holds no image (a disc’s DICOMDIR is only its table of contents). Please choose one of the image files.';
/** One call stores one X-ray: the web app opens a zipped disc folder and sends its images one by
 *  one (docs/decisions/dicom-import.md). */
export const zippedDicomMessage =
  'This is a zip file. Add it on the Add Photo page, which opens a zipped DICOM folder and saves each X-ray in it, or choose the DICOM files (.dcm) inside it.';

/** Transfer syntaxes whose pixels are read here (docs/decisions/dicom-import.md). */
const uncompressedSyntaxes = new Set([
  '1.2.840.10008.1.2', // Implicit VR Little Endian
  '1.2.840.10008.1.2.1', // Explicit VR Little Endian
  '1.2.840.10008.1.2.1.99', // Deflated Explicit VR Little Endian: dcmjs inflates the dataset
]);
const deflatedSyntax = '1.2.840.10008.1.2.1.99';
const jpegBaselineSyntax = '1.2.840.10008.1.2.4.50';

/** Names of the transfer syntaxes a refusal may have to name (DICOM PS3.6 Annex A). */
const syntaxNames: Record<string, string> = {
  '1.2.840.10008.1.2.2': 'Explicit VR Big Endian',
  '1.2.840.10008.1.2.4.51': 'JPEG Extended (Process 2 & 4)',
  '1.2.840.10008.1.2.4.57': 'JPEG Lossless, Non-Hierarchical (Process 14)',
  '1.2.840.10008.1.2.4.70': 'JPEG Lossless, Non-Hierarchical, First-Order Prediction',
  '1.2.840.10008.1.2.4.80': 'JPEG-LS Lossless',
  '1.2.840.10008.1.2.4.81': 'JPEG-LS Near-Lossless',
  '1.2.840.10008.1.2.4.90': 'JPEG 2000 (Lossless Only)',
  '1.2.840.10008.1.2.4.91': 'JPEG 2000',
  '1.2.840.10008.1.2.4.201': 'High-Throughput JPEG 2000 (Lossless Only)',
  '1.2.840.10008.1.2.4.202': 'High-Throughput JPEG 2000 with RPCL Options (Lossless Only)',
  '1.2.840.10008.1.2.4.203': 'High-Throughput JPEG 2000',
  '1.2.840.10008.1.2.5': 'RLE Lossless',
  '1.2.840.10008.1.2.4.100': 'MPEG2 Main Profile',
  '1.2.840.10008.1.2.4.102': 'MPEG-4 AVC/H.264',
  '1.2.840.10008.1.2.4.110': 'JPEG XL Lossless',
  '1.2.840.10008.1.2.4.112': 'JPEG XL',
};

/** The 415 for a transfer syntax that is not read here: its name and UID, and what to do. */
export function unsupportedSyntaxMessage(uid: string): string {
  const name = syntaxNames[uid] ?? 'an unknown transfer syntax';
  return `This DICOM file is stored as ${name} (transfer syntax ${uid}), which the app cannot read. Please ask the clinic for a copy as uncompressed or JPEG baseline DICOM.`;
}

/** Modalities of light photographs; every other modality is radiography to a patient
 *  (docs/decisions/dicom-import.md). */
const photographModalities = new Set(['XC', 'ES', 'GM', 'SM', 'OP']);

export interface RenderedDicom {
  /** The first frame, windowed to 8 bits: raw pixels, 1 (grey) or 3 (RGB) channels, in memory of
   *  their own, which can move to another thread without a copy. */
  pixels: Buffer;
  width: number;
  height: number;
  channels: 1 | 3;
  /** The study date as YYYY-MM-DD, when the file has a valid one. */
  studyDate: string | undefined;
  /** The photo type the modality stands for, when the file names one. */
  photoType: PhotoType | undefined;
}

export interface RenderDicomOptions {
  /** Largest image accepted, width × height; a larger one is a 413. */
  maxPixels: number;
}

type Dataset = Record<string, unknown>;

/** The first value of a possibly multi-valued element (a window centre may hold several). */
function first(value: unknown): unknown {
  return Array.isArray(value) ? (value as unknown[])[0] : value;
}
function numberOf(value: unknown): number | undefined {
  const number = Number(first(value));
  return first(value) === undefined || first(value) === '' || !Number.isFinite(number)
    ? undefined
    : number;
}
function textOf(value: unknown): string | undefined {
  const text = first(value);
  return typeof text === 'string' ? text.trim() : undefined;
}

/** A DA value (YYYYMMDD, or the old YYYY.MM.DD) as YYYY-MM-DD, if it is a real date. */
export function studyDateOf(value: unknown): string | undefined {
  const match = /^(\d{4})\.?(\d{2})\.?(\d{2})$/.exec(textOf(value) ?? '');
  if (match === null) return undefined;
  const [, year, month, day] = match as unknown as [string, string, string, string];
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  const iso = `${year}-${month}-${day}`;
  return date.toISOString().startsWith(iso) ? iso : undefined;
}

function photoTypeOf(modality: unknown): PhotoType | undefined {
  const name = textOf(modality)?.toUpperCase();
  if (name === undefined || name === '') return undefined;
  return photographModalities.has(name) ? 'Photo' : 'X-ray';
}

function unreadable(cause?: unknown): UnsupportedMediaType {
  return new UnsupportedMediaType(unreadableDicomMessage, cause);
}

function parse(bytes: Buffer): { syntax: string; dataset: Dataset } {
  checkDicomStructure(bytes);
  try {
    const arrayBuffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    const file = dcmjs.data.DicomMessage.readFile(arrayBuffer as ArrayBuffer);
    const meta = dcmjs.data.DicomMetaDictionary.naturalizeDataset(file.meta);
    const dataset = dcmjs.data.DicomMetaDictionary.naturalizeDataset(file.dict);
    return { syntax: textOf(meta.TransferSyntaxUID) ?? '', dataset };
  } catch (error) {
    throw unreadable(error);
  }
}

const implicitLittleEndian = '1.2.840.10008.1.2';

/**
 * Whether the file holds the whole uncompressed pixel data its header declares. dcmjs 0.51 fills a
 * value cut off by the file's end with zeros instead of failing, so a truncated X-ray would show
 * a black band; the element is found by its tag with its VR and length, a 12- or 8-byte run that
 * pixel values do not repeat by chance, and must end within the file.
 */
function holdsWholePixelData(bytes: Buffer, syntax: string, length: number): boolean {
  const tag = [0xe0, 0x7f, 0x10, 0x00]; // (7FE0,0010) Pixel Data, little endian
  const lengthBytes = Buffer.alloc(4);
  lengthBytes.writeUInt32LE(length);
  const headers =
    syntax === implicitLittleEndian
      ? [Buffer.from([...tag, ...lengthBytes])]
      : ['OW', 'OB'].map((vr) =>
          Buffer.concat([Buffer.from(tag), Buffer.from(vr), Buffer.alloc(2), lengthBytes]),
        );
  return headers.some((header) => {
    const at = bytes.indexOf(header);
    return at !== -1 && at + header.length + length <= bytes.byteLength;
  });
}

/** The pixel data's fragments or frames as dcmjs reads them: a list of buffers. */
function pixelBuffers(dataset: Dataset): Uint8Array[] {
  const data = dataset.PixelData;
  if (!Array.isArray(data) || data.length === 0) {
    throw new UnsupportedMediaType(dicomWithoutImageMessage);
  }
  return (data as unknown[]).map((part) => {
    if (part instanceof ArrayBuffer) return new Uint8Array(part);
    if (ArrayBuffer.isView(part))
      return new Uint8Array(part.buffer, part.byteOffset, part.byteLength);
    throw unreadable();
  });
}

interface ImageShape {
  width: number;
  height: number;
  samples: 1 | 3;
  photometric: string;
}

function shapeOf(dataset: Dataset, options: RenderDicomOptions): ImageShape {
  const width = numberOf(dataset.Columns);
  const height = numberOf(dataset.Rows);
  if (width === undefined || height === undefined || width < 1 || height < 1) {
    throw new UnsupportedMediaType(dicomWithoutImageMessage);
  }
  if (width * height > options.maxPixels) throw tooManyPixels(options.maxPixels);
  const samples = numberOf(dataset.SamplesPerPixel) ?? 1;
  const photometric = textOf(dataset.PhotometricInterpretation)?.toUpperCase() ?? 'MONOCHROME2';
  if (samples !== 1 && samples !== 3) throw unsupportedImage(photometric);
  return { width, height, samples, photometric };
}

function unsupportedImage(photometric: string): UnsupportedMediaType {
  return new UnsupportedMediaType(
    `This DICOM image uses a kind of pixel data (${photometric}) that the app cannot show. Please ask the clinic for a greyscale or RGB copy.`,
  );
}

/** The stored values of the first frame of uncompressed pixel data, sign and bit depth applied. */
function storedValues(dataset: Dataset, shape: ImageShape, data: Uint8Array): Float64Array {
  const allocated = numberOf(dataset.BitsAllocated) ?? 16;
  const stored = Math.min(numberOf(dataset.BitsStored) ?? allocated, allocated);
  const signed = numberOf(dataset.PixelRepresentation) === 1;
  if ((allocated !== 8 && allocated !== 16) || stored < 1) {
    throw new UnsupportedMediaType(
      `This DICOM image has ${String(allocated)}-bit pixels, which the app cannot show. Please ask the clinic for an 8- or 16-bit copy.`,
    );
  }
  const count = shape.width * shape.height * shape.samples;
  const bytesPerValue = allocated / 8;
  if (data.byteLength < count * bytesPerValue) throw unreadable();
  const view = new DataView(data.buffer, data.byteOffset, count * bytesPerValue);
  // The stored bits are the low ones (High Bit = Bits Stored − 1, as every modality writes).
  const mask = 2 ** stored - 1;
  const signBit = 2 ** (stored - 1);
  const values = new Float64Array(count);
  for (let index = 0; index < count; index += 1) {
    const raw =
      (bytesPerValue === 1 ? view.getUint8(index) : view.getUint16(index * 2, true)) & mask;
    values[index] = signed && raw >= signBit ? raw - 2 ** stored : raw;
  }
  return values;
}

/** Planar RGB (colour by plane) as interleaved pixels. */
function interleaved(values: Float64Array, shape: ImageShape, planar: boolean): Buffer {
  const pixels = shape.width * shape.height;
  const out = Buffer.alloc(pixels * 3);
  for (let index = 0; index < pixels; index += 1) {
    for (let channel = 0; channel < 3; channel += 1) {
      const value = planar ? values[channel * pixels + index] : values[index * 3 + channel];
      out[index * 3 + channel] = Math.max(0, Math.min(255, Math.round(value ?? 0)));
    }
  }
  return out;
}

/**
 * Modality LUT (rescale slope and intercept), then VOI LUT (window centre and width, first value;
 * without one, the pixel range), then MONOCHROME1 inverted: the linear function of DICOM PS3.3
 * C.11.2.1.2.1, to 8 bits.
 */
export function windowed(values: Float64Array, dataset: Dataset, photometric: string): Buffer {
  const slope = numberOf(dataset.RescaleSlope) ?? 1;
  const intercept = numberOf(dataset.RescaleIntercept) ?? 0;
  let low = Infinity;
  let high = -Infinity;
  for (let index = 0; index < values.length; index += 1) {
    const value = (values[index] ?? 0) * slope + intercept;
    values[index] = value;
    if (value < low) low = value;
    if (value > high) high = value;
  }
  const width = numberOf(dataset.WindowWidth);
  const center = numberOf(dataset.WindowCenter);
  const [c, w] =
    center !== undefined && width !== undefined && width >= 1
      ? [center, width]
      : // The pixel range as a window: its lowest value black, its highest white.
        [(low + high + 1) / 2, Math.max(high - low + 1, 1)];
  const invert = photometric === 'MONOCHROME1';
  const out = Buffer.alloc(values.length);
  const bottom = c - 0.5 - (w - 1) / 2;
  const top = c - 0.5 + (w - 1) / 2;
  for (let index = 0; index < values.length; index += 1) {
    const x = values[index] ?? 0;
    const y = x <= bottom ? 0 : x > top ? 255 : Math.round(((x - (c - 0.5)) / (w - 1) + 0.5) * 255);
    out[index] = invert ? 255 - y : y;
  }
  return out;
}

/** The JPEG of the first frame: one fragment per frame, or every fragment of a single frame. */
function firstJpegFrame(dataset: Dataset, fragments: Uint8Array[]): Buffer {
  const frames = numberOf(dataset.NumberOfFrames) ?? 1;
  const parts = frames > 1 ? fragments.slice(0, 1) : fragments;
  return Buffer.concat(parts);
}

async function decodeJpeg(
  dataset: Dataset,
  shape: ImageShape,
  fragments: Uint8Array[],
  options: RenderDicomOptions,
): Promise<{ values: Float64Array } | { rgb: Buffer }> {
  try {
    const image = sharp(firstJpegFrame(dataset, fragments), {
      failOn: 'error',
      limitInputPixels: options.maxPixels,
    });
    if (shape.samples === 3) {
      const { data } = await image.removeAlpha().toColourspace('srgb').raw().toBuffer({
        resolveWithObject: true,
      });
      // sharp's buffers cannot be moved to another thread; a copy of its own can.
      const rgb = Buffer.alloc(data.length);
      data.copy(rgb);
      return { rgb };
    }
    const { data, info } = await image.extractChannel(0).raw().toBuffer({
      resolveWithObject: true,
    });
    if (info.width !== shape.width || info.height !== shape.height) throw unreadable();
    return { values: Float64Array.from(data) };
  } catch (error) {
    if (error instanceof UnsupportedMediaType) throw error;
    throw unreadable(error);
  }
}

/**
 * Reads a DICOM file and renders its first frame to 8-bit pixels
 * (docs/decisions/dicom-import.md). Only pixels come out: names, IDs and every other attribute
 * stay behind, except the study date and modality. Failures are 415 problems; a refused transfer
 * syntax is named with its UID. The API calls it in a worker thread (dicom-reader.ts): a file can
 * keep it busy for seconds.
 */
export async function renderDicom(
  bytes: Buffer,
  options: RenderDicomOptions,
): Promise<RenderedDicom> {
  const { syntax, dataset } = parse(bytes);
  const jpeg = syntax === jpegBaselineSyntax;
  if (!jpeg && !uncompressedSyntaxes.has(syntax)) {
    throw new UnsupportedMediaType(unsupportedSyntaxMessage(syntax));
  }
  const data = pixelBuffers(dataset);
  const shape = shapeOf(dataset, options);
  const grey = shape.photometric === 'MONOCHROME1' || shape.photometric === 'MONOCHROME2';
  const colour = shape.samples === 3 && (jpeg || shape.photometric === 'RGB');
  if (!(grey && shape.samples === 1) && !colour) throw unsupportedImage(shape.photometric);
  const described = {
    width: shape.width,
    height: shape.height,
    studyDate: studyDateOf(dataset.StudyDate),
    photoType: photoTypeOf(dataset.Modality),
  };
  if (jpeg) {
    const decoded = await decodeJpeg(dataset, shape, data, options);
    return 'rgb' in decoded
      ? { ...described, pixels: decoded.rgb, channels: 3 }
      : {
          ...described,
          pixels: windowed(decoded.values, dataset, shape.photometric),
          channels: 1,
        };
  }
  // Uncompressed frames follow one another in one buffer.
  const frames = data[0] ?? new Uint8Array();
  // A deflated file's dataset is compressed, so its bytes cannot be searched; inflating a cut
  // stream fails on its own.
  if (syntax !== deflatedSyntax && !holdsWholePixelData(bytes, syntax, frames.byteLength)) {
    throw unreadable();
  }
  const values = storedValues(dataset, shape, frames);
  if (colour) {
    if ((numberOf(dataset.BitsAllocated) ?? 8) !== 8) throw unsupportedImage('RGB, 16-bit');
    const planar = numberOf(dataset.PlanarConfiguration) === 1;
    return { ...described, pixels: interleaved(values, shape, planar), channels: 3 };
  }
  return { ...described, pixels: windowed(values, dataset, shape.photometric), channels: 1 };
}

import { deflateRawSync, inflateRawSync } from 'node:zlib';
import dcmjs from 'dcmjs';
import { UnsupportedMediaType } from './upload-errors';

/**
 * Bounds on a DICOM file's structure, checked before dcmjs reads it
 * (docs/decisions/dicom-import.md). dcmjs scans each undefined-length item to its end before
 * reading it, so it reads a byte once more for every such item around it: 50,000 nested
 * sequences in 1.8 MB held the event loop for 30 seconds, and 9 MB inside 16 of them for 2.3.
 * An X-ray nests sequences a few levels deep, holds a few hundred elements, and keeps its pixels
 * outside every item.
 */
export const dicomStructureLimits = {
  maxDepth: 16,
  maxElements: 50_000,
  /** Bytes dcmjs reads ahead through undefined-length items, counted once per item around them:
   *  about 100 ms here. */
  maxScannedAhead: 8 * 1024 * 1024,
  /** A deflated dataset inflates to at most this: the largest image's 16-bit pixels and more. */
  maxInflatedBytes: 128 * 1024 * 1024,
} as const;

export const dicomTooComplexMessage =
  'This DICOM file is built in a way the app does not read (too many nested sequences or elements). Please ask the clinic for a plain copy of the X-ray.';

const undefinedLength = 0xffffffff;
const itemTag = 0xe000;
const itemDelimiter = 0xe00d;
const sequenceDelimiter = 0xe0dd;
/** VRs whose explicit header has a 4-byte length (DICOM PS3.5 7.1.2). */
const longVrs = new Set([
  'OB',
  'OD',
  'OF',
  'OL',
  'OV',
  'OW',
  'SQ',
  'SV',
  'UC',
  'UN',
  'UR',
  'UT',
  'UV',
]);
const deflatedSyntax = '1.2.840.10008.1.2.1.99';
const implicitSyntax = '1.2.840.10008.1.2';
const dictionary = dcmjs.data.DicomMetaDictionary.dictionary;

/** Called with where each plain value (not a sequence, item or fragment) lies in the bytes. */
type ValueVisitor = (group: number, element: number, start: number, end: number) => void;

/** What an open container holds: data elements (an item), items (a sequence), or pixel fragments. */
interface Container {
  holds: 'elements' | 'items' | 'fragments';
  /** Offset where a defined-length container ends; Infinity until its delimiter. */
  end: number;
  implicit: boolean;
}

function tooComplex(): UnsupportedMediaType {
  return new UnsupportedMediaType(dicomTooComplexMessage);
}

function tagName(group: number, element: number): string {
  const hex = (value: number) => value.toString(16).toUpperCase().padStart(4, '0');
  return `(${hex(group)},${hex(element)})`;
}

/**
 * Walks a dataset's element headers without reading values, one pass, and throws a 415 when it
 * nests deeper, holds more elements or would make dcmjs read ahead more than the limits allow.
 * Lengths that do not fit end the walk quietly: dcmjs judges a damaged file.
 */
function walkDataset(bytes: Buffer, start: number, implicit: boolean, visit?: ValueVisitor): void {
  const open: Container[] = [];
  let depth = 0;
  let undefinedItems = 0;
  let elements = 0;
  let scannedAhead = 0;
  let offset = start;
  const countOf = (container: Container | undefined) => ({
    depth: container?.holds === 'items' ? 1 : 0,
    undefinedItem: container?.holds === 'elements' && container.end === Infinity ? 1 : 0,
  });
  const enter = (container: Container) => {
    open.push(container);
    depth += countOf(container).depth;
    undefinedItems += countOf(container).undefinedItem;
    if (depth > dicomStructureLimits.maxDepth) throw tooComplex();
  };
  const leave = () => {
    const left = countOf(open.pop());
    depth -= left.depth;
    undefinedItems -= left.undefinedItem;
  };
  while (offset + 8 <= bytes.length) {
    while (open.length > 0 && offset >= (open.at(-1)?.end ?? Infinity)) leave();
    elements += 1;
    if (elements > dicomStructureLimits.maxElements) throw tooComplex();
    const elementStart = offset;
    const scanners = undefinedItems;
    step();
    // A length past the file's end is dcmjs's to judge, not a cost.
    scannedAhead += (Math.min(offset, bytes.length) - elementStart) * scanners;
    if (scannedAhead > dicomStructureLimits.maxScannedAhead) throw tooComplex();
  }

  /** Reads one element's header and moves past its value, or into it when it holds others. */
  function step(): void {
    const current = open.at(-1);
    const group = bytes.readUInt16LE(offset);
    const element = bytes.readUInt16LE(offset + 2);
    if (group === 0xfffe) {
      const length = bytes.readUInt32LE(offset + 4);
      offset += 8;
      if (element === itemDelimiter || element === sequenceDelimiter) leave();
      else if (element === itemTag && current?.holds === 'items') {
        enter({
          holds: 'elements',
          end: length === undefinedLength ? Infinity : offset + length,
          implicit: current.implicit,
        });
      } else if (length !== undefinedLength) offset += length;
      return;
    }
    const isImplicit = current?.implicit ?? implicit;
    let vr: string;
    let length: number;
    if (isImplicit) {
      vr = dictionary[tagName(group, element)]?.vr ?? 'UN';
      length = bytes.readUInt32LE(offset + 4);
      offset += 8;
    } else {
      vr = bytes.toString('latin1', offset + 4, offset + 6);
      const long = longVrs.has(vr);
      if (long && offset + 12 > bytes.length) {
        offset = bytes.length;
        return;
      }
      length = long ? bytes.readUInt32LE(offset + 8) : bytes.readUInt16LE(offset + 6);
      offset += long ? 12 : 8;
    }
    if (length === undefinedLength) {
      const fragments = vr === 'OB' || vr === 'OW' || (group === 0x7fe0 && element === 0x0010);
      // An undefined-length UN holds an implicit-VR sequence (DICOM PS3.5 6.2.2).
      enter({
        holds: fragments ? 'fragments' : 'items',
        end: Infinity,
        implicit: isImplicit || vr === 'UN',
      });
    } else if (vr === 'SQ') enter({ holds: 'items', end: offset + length, implicit: isImplicit });
    else {
      visit?.(group, element, offset, Math.min(offset + length, bytes.length));
      offset += length;
    }
  }
}

/** A Part 10 file's dataset: the file itself from the end of its meta group, or, for a deflated
 *  syntax, the inflated dataset alone. */
interface Part10Dataset {
  bytes: Buffer;
  start: number;
  implicit: boolean;
  /** Where the file meta group ends in the file. */
  metaEnd: number;
  deflated: boolean;
}

/**
 * The file meta group walked to find the transfer syntax, and the dataset after it (a deflated one
 * inflated, within a bound); undefined for a deflated stream that is damaged: dcmjs's to judge.
 */
function datasetOf(bytes: Buffer): Part10Dataset | undefined {
  let offset = 132; // 128-byte preamble and "DICM"
  let syntax = '';
  while (offset + 8 <= bytes.length && bytes.readUInt16LE(offset) === 0x0002) {
    const vr = bytes.toString('latin1', offset + 4, offset + 6);
    const long = longVrs.has(vr);
    if (long && offset + 12 > bytes.length) break;
    const length = long ? bytes.readUInt32LE(offset + 8) : bytes.readUInt16LE(offset + 6);
    const valueAt = offset + (long ? 12 : 8);
    if (bytes.readUInt16LE(offset + 2) === 0x0010) {
      syntax = bytes.toString('latin1', valueAt, valueAt + length).replace(/[\0 ]+$/, '');
    }
    offset = valueAt + length;
  }
  const plain = { metaEnd: offset, implicit: syntax === implicitSyntax };
  if (syntax !== deflatedSyntax) return { ...plain, bytes, start: offset, deflated: false };
  try {
    const inflated = inflateRawSync(bytes.subarray(offset), {
      maxOutputLength: dicomStructureLimits.maxInflatedBytes,
    });
    return { ...plain, bytes: inflated, start: 0, deflated: true };
  } catch (error) {
    // A damaged stream is dcmjs's to judge; one that inflates beyond the bound is refused here.
    if ((error as { code?: unknown }).code !== 'ERR_BUFFER_TOO_LARGE') return undefined;
    throw new UnsupportedMediaType(dicomTooComplexMessage, error);
  }
}

/**
 * Refuses a DICOM Part 10 file whose structure would keep dcmjs busy for long, before it is read.
 * Files that are not Part 10 or not little endian are left to the reader.
 */
export function checkDicomStructure(bytes: Buffer): void {
  const dataset = datasetOf(bytes);
  if (dataset !== undefined) walkDataset(dataset.bytes, dataset.start, dataset.implicit);
}

/**
 * Attributes that name or identify the patient, the clinic or its staff: those of the DICOM
 * PS3.15 basic confidentiality profile (Annex E) that are plain values, as "(gggg,eeee)".
 */
const identifyingAttributes = new Set([
  '(0008,0050)', // Accession Number
  '(0008,0080)', // Institution Name
  '(0008,0081)', // Institution Address
  '(0008,0090)', // Referring Physician's Name
  '(0008,0092)', // Referring Physician's Address
  '(0008,0094)', // Referring Physician's Telephone Numbers
  '(0008,1010)', // Station Name
  '(0008,1040)', // Institutional Department Name
  '(0008,1048)', // Physician(s) of Record
  '(0008,1050)', // Performing Physician's Name
  '(0008,1060)', // Name of Physician(s) Reading Study
  '(0008,1070)', // Operators' Name
  '(0010,0010)', // Patient's Name
  '(0010,0020)', // Patient ID
  '(0010,0021)', // Issuer of Patient ID
  '(0010,0030)', // Patient's Birth Date
  '(0010,0032)', // Patient's Birth Time
  '(0010,0040)', // Patient's Sex
  '(0010,1000)', // Other Patient IDs
  '(0010,1001)', // Other Patient Names
  '(0010,1010)', // Patient's Age
  '(0010,1040)', // Patient's Address
  '(0010,1060)', // Patient's Mother's Birth Name
  '(0010,2154)', // Patient's Telephone Numbers
  '(0010,2160)', // Ethnic Group
  '(0010,2180)', // Occupation
  '(0010,21B0)', // Additional Patient History
  '(0010,4000)', // Patient Comments
  '(0018,1000)', // Device Serial Number
  '(0020,0010)', // Study ID
  '(0032,1032)', // Requesting Physician
]);

/**
 * A copy of a DICOM file for someone other than the patient (docs/decisions/share-file-links.md):
 * every identifying attribute above and every private one (odd groups, which vendors fill with
 * anything) blanked to spaces at any depth, each value keeping its length so the rest of the file
 * stays as it was. The pixels are untouched: text burned into them stays.
 */
export function deidentifiedDicom(bytes: Buffer): Buffer {
  const dataset = datasetOf(bytes);
  if (dataset === undefined) throw new UnsupportedMediaType(dicomTooComplexMessage);
  const copy = Buffer.from(dataset.bytes);
  walkDataset(copy, dataset.start, dataset.implicit, (group, element, start, end) => {
    // A private group's length element (gggg,0000) is a number, not text.
    const isPrivate = group % 2 === 1 && element !== 0x0000;
    if (isPrivate || identifyingAttributes.has(tagName(group, element)))
      copy.fill(0x20, start, end);
  });
  return dataset.deflated
    ? Buffer.concat([bytes.subarray(0, dataset.metaEnd), deflateRawSync(copy)])
    : copy;
}

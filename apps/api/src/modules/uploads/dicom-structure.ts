import { inflateRawSync } from 'node:zlib';
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
function walkDataset(bytes: Buffer, start: number, implicit: boolean): void {
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
    else offset += length;
  }
}

/**
 * Refuses a DICOM Part 10 file whose structure would keep dcmjs busy for long, before it is read:
 * the file meta group, then the dataset in its transfer syntax (a deflated one inflated, within a
 * bound). Files that are not Part 10 or not little endian are left to the reader.
 */
export function checkDicomStructure(bytes: Buffer): void {
  let offset = 132; // 128-byte preamble and "DICM"
  let syntax = '';
  while (offset + 8 <= bytes.length && bytes.readUInt16LE(offset) === 0x0002) {
    const vr = bytes.toString('latin1', offset + 4, offset + 6);
    const long = longVrs.has(vr);
    if (long && offset + 12 > bytes.length) return;
    const length = long ? bytes.readUInt32LE(offset + 8) : bytes.readUInt16LE(offset + 6);
    const valueAt = offset + (long ? 12 : 8);
    if (bytes.readUInt16LE(offset + 2) === 0x0010) {
      syntax = bytes.toString('latin1', valueAt, valueAt + length).replace(/[\0 ]+$/, '');
    }
    offset = valueAt + length;
  }
  if (syntax === deflatedSyntax) {
    let inflated: Buffer;
    try {
      inflated = inflateRawSync(bytes.subarray(offset), {
        maxOutputLength: dicomStructureLimits.maxInflatedBytes,
      });
    } catch (error) {
      // A damaged stream is dcmjs's to judge; one that inflates beyond the bound is refused here.
      if ((error as { code?: unknown }).code !== 'ERR_BUFFER_TOO_LARGE') return;
      throw new UnsupportedMediaType(dicomTooComplexMessage, error);
    }
    walkDataset(inflated, 0, false);
    return;
  }
  walkDataset(bytes, offset, syntax === implicitSyntax);
}

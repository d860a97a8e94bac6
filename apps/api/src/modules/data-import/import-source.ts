import { buffer } from 'node:stream/consumers';
import { fromBuffer, type Entry, type ZipFile } from 'yauzl';
import type { Bundle } from '@medplum/fhirtypes';
import {
  dataExportBundlePath,
  dataImportLimits,
  dataImportNoBundleMessage,
  dataImportNotBundleMessage,
  dataImportTooManyEntriesMessage,
  dataImportUnreadableMessage,
} from '@dental/contracts';
import { BadRequest } from '#api/domain-errors';
import { PayloadTooLarge } from '../uploads/upload-errors';

/** The largest file read out of a zip: a DICOM original (10 MB) with room to spare. A zip entry
 *  cannot claim less than it holds: yauzl checks each entry's real size against its header. */
const maxZippedFileBytes = 16 * 1024 * 1024;

/** A Bundle read from what a member sent, and the zip's other files by their path. */
export interface ImportSource {
  bundle: Bundle;
  /** The bytes of a file of the zip ('/'-separated path from its root); null when the zip has
   *  none by that name, or the Bundle came alone. */
  file(path: string): Promise<Buffer | null>;
  close(): void;
}

const zipMagic = Buffer.from('PK\u0003\u0004', 'latin1');

function openZip(bytes: Buffer): Promise<ZipFile> {
  return new Promise((resolve, reject) => {
    fromBuffer(bytes, { lazyEntries: true, autoClose: false }, (error, zip) => {
      if (error === null) resolve(zip);
      else reject(error);
    });
  });
}

function entriesOf(zip: ZipFile): Promise<Map<string, Entry>> {
  return new Promise((resolve, reject) => {
    const entries = new Map<string, Entry>();
    zip.on('entry', (entry: Entry) => {
      entries.set(entry.fileName, entry);
      if (entries.size > dataImportLimits.maxZipEntries) {
        reject(new PayloadTooLarge(dataImportTooManyEntriesMessage));
        return;
      }
      zip.readEntry();
    });
    zip.on('end', () => {
      resolve(entries);
    });
    zip.on('error', reject);
    zip.readEntry();
  });
}

async function readEntry(zip: ZipFile, entry: Entry, maxBytes: number): Promise<Buffer> {
  if (entry.uncompressedSize > maxBytes) {
    throw new PayloadTooLarge(`${entry.fileName} is too large to import.`);
  }
  const stream = await new Promise<NodeJS.ReadableStream>((resolve, reject) => {
    zip.openReadStream(entry, (error, opened) => {
      if (error === null) resolve(opened);
      else reject(error);
    });
  });
  return buffer(stream);
}

/** The Bundle, or a 400/413 that says what is wrong with it. */
function bundleOf(json: Buffer): Bundle {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json.toString('utf8'));
  } catch {
    throw new BadRequest(dataImportUnreadableMessage);
  }
  if (
    typeof parsed !== 'object' ||
    parsed === null ||
    (parsed as { resourceType?: unknown }).resourceType !== 'Bundle'
  ) {
    throw new BadRequest(dataImportNotBundleMessage);
  }
  const { entry } = parsed as { entry?: unknown };
  if (entry !== undefined && !Array.isArray(entry))
    throw new BadRequest(dataImportNotBundleMessage);
  if ((entry?.length ?? 0) > dataImportLimits.maxEntries) {
    throw new PayloadTooLarge(dataImportTooManyEntriesMessage);
  }
  return parsed as Bundle;
}

/** The Bundle of a zip: where 'Download my data' puts it, else the one JSON file in `fhir/`. */
function bundleEntry(entries: ReadonlyMap<string, Entry>): Entry {
  const exported = entries.get(dataExportBundlePath);
  if (exported !== undefined) return exported;
  const candidates = [...entries.keys()].filter((name) => /^fhir\/[^/]+\.json$/.test(name));
  const only = candidates.length === 1 ? entries.get(candidates[0] ?? '') : undefined;
  if (only === undefined) throw new BadRequest(dataImportNoBundleMessage);
  return only;
}

/**
 * Reads what a member sent (docs/decisions/data-import.md): a zip made by 'Download my data' or
 * a FHIR Bundle in JSON, told apart by their bytes, not by a name or a claimed type. Anything
 * else is a 400; a file over the limits a 413.
 */
export async function readImportSource(bytes: Buffer): Promise<ImportSource> {
  if (bytes.length > dataImportLimits.maxBytes) {
    throw new PayloadTooLarge(dataImportUnreadableMessage);
  }
  if (!bytes.subarray(0, zipMagic.length).equals(zipMagic)) {
    return { bundle: bundleOf(bytes), file: () => Promise.resolve(null), close: () => undefined };
  }
  let zip: ZipFile;
  let entries: Map<string, Entry>;
  try {
    zip = await openZip(bytes);
    entries = await entriesOf(zip);
  } catch (error) {
    if (error instanceof PayloadTooLarge) throw error;
    throw new BadRequest(dataImportUnreadableMessage);
  }
  try {
    const bundle = bundleOf(await readEntry(zip, bundleEntry(entries), dataImportLimits.maxBytes));
    return {
      bundle,
      file: async (path) => {
        const entry = entries.get(path);
        return entry === undefined ? null : readEntry(zip, entry, maxZippedFileBytes);
      },
      close: () => {
        zip.close();
      },
    };
  } catch (error) {
    zip.close();
    throw error;
  }
}

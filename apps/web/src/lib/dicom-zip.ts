import { unzipSync } from 'fflate';
import { dicomUploadLimit } from '@dental/contracts';
import { choosePhoto } from './choose-image';

/** Most X-rays taken from one zip, and most bytes unpacked for them: a disc holds far fewer, and
 *  the bound keeps a zip bomb from filling the browser's memory. */
export const zipLimits = { files: 100, bytes: 200 * 1024 * 1024 } as const;

export const emptyZipMessage =
  'No DICOM X-rays were found in this zip file. Please choose the .dcm files themselves.';
export const largeZipMessage = `This zip file holds more than ${String(zipLimits.files)} files or ${String(zipLimits.bytes / 1024 / 1024)} MB. Please choose the .dcm files themselves.`;
export const unreadableZipMessage =
  'The zip file could not be opened. It may be damaged; please choose the .dcm files themselves.';

export type ZippedDicoms = { dataUrls: string[] } | { error: string };

/** A zip file, by its bytes: 'PK' and a local file header. */
export async function isZip(file: Blob): Promise<boolean> {
  const start = new Uint8Array(await file.slice(0, 4).arrayBuffer());
  return start[0] === 0x50 && start[1] === 0x4b && start[2] === 0x03 && start[3] === 0x04;
}

/**
 * The DICOM X-rays of a zipped disc folder, as data links, in the zip's order
 * (docs/decisions/dicom-import.md): every file that is DICOM by its bytes, except the DICOMDIR
 * (the disc's table of contents, which holds no image). Each is sent on its own, as the API takes
 * one X-ray per call. Files too large to send are left out; sizes are checked from the zip's
 * directory before anything is unpacked.
 */
export async function dicomsInZip(file: Blob): Promise<ZippedDicoms> {
  const unpacked = { files: 0, bytes: 0, tooLarge: false };
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(new Uint8Array(await file.arrayBuffer()), {
      filter: (entry) => {
        const base = entry.name.split('/').at(-1) ?? '';
        if (base === '' || base.toUpperCase() === 'DICOMDIR') return false;
        if (entry.originalSize > dicomUploadLimit.maxBytes) return false;
        unpacked.files += 1;
        unpacked.bytes += entry.originalSize;
        if (unpacked.files > zipLimits.files || unpacked.bytes > zipLimits.bytes) {
          unpacked.tooLarge = true;
        }
        return !unpacked.tooLarge;
      },
    });
  } catch {
    return { error: unreadableZipMessage };
  }
  if (unpacked.tooLarge) return { error: largeZipMessage };
  const dataUrls: string[] = [];
  for (const [name, content] of Object.entries(entries)) {
    const chosen = await choosePhoto(new File([content as Uint8Array<ArrayBuffer>], name));
    if ('dataUrl' in chosen && chosen.dicom) dataUrls.push(chosen.dataUrl);
  }
  return dataUrls.length === 0 ? { error: emptyZipMessage } : { dataUrls };
}

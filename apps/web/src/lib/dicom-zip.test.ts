import { describe, expect, it } from 'vitest';
import { strToU8, zipSync } from 'fflate';
import { dicomsInZip, emptyZipMessage, isZip, largeZipMessage, zipLimits } from './dicom-zip';

/** The start of a DICOM Part 10 file: 128 bytes of preamble, then 'DICM', then `tag`. */
function dicomBytes(tag: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(140);
  bytes.set(strToU8('DICM'), 128);
  bytes[139] = tag;
  return bytes;
}

const zipOf = (files: Record<string, Uint8Array>) => new Blob([zipSync(files)]);

describe('dicomsInZip', () => {
  it('takes every DICOM file of a disc folder but its DICOMDIR, in order', async () => {
    const zip = zipOf({
      'DISC/DICOMDIR': dicomBytes(0),
      'DISC/DICOM/IM000001': dicomBytes(1),
      'DISC/DICOM/IM000002.dcm': dicomBytes(2),
      'DISC/README.TXT': strToU8('Open with the viewer on this disc.'),
    });
    expect(await isZip(zip)).toBe(true);
    const found = await dicomsInZip(zip);
    if ('error' in found) throw new Error(found.error);
    expect(found.dataUrls).toHaveLength(2);
    found.dataUrls.forEach((dataUrl, index) => {
      expect(dataUrl.startsWith('data:application/dicom;base64,')).toBe(true);
      const bytes = Uint8Array.from(atob(dataUrl.split(',')[1] ?? ''), (c) => c.charCodeAt(0));
      expect(bytes[139]).toBe(index + 1);
    });
  });

  it('says so when a zip holds no X-ray, and refuses one with too many files', async () => {
    expect(await dicomsInZip(zipOf({ 'DISC/DICOMDIR': dicomBytes(0) }))).toEqual({
      error: emptyZipMessage,
    });
    const many = Object.fromEntries(
      Array.from({ length: zipLimits.files + 1 }, (_, i) => [`IM${String(i)}`, dicomBytes(i)]),
    );
    expect(await dicomsInZip(zipOf(many))).toEqual({ error: largeZipMessage });
  });

  it('does not take other files for zips', async () => {
    expect(await isZip(new Blob([dicomBytes(1)]))).toBe(false);
  });
});

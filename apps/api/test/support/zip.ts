import { buffer } from 'node:stream/consumers';
import { fromBuffer, type Entry, type ZipFile } from 'yauzl';

function openZip(bytes: Buffer): Promise<ZipFile> {
  return new Promise<ZipFile>((resolve, reject) => {
    fromBuffer(bytes, { lazyEntries: true }, (error, opened) => {
      if (error === null) resolve(opened);
      else reject(error);
    });
  });
}

/** Every entry of a zip archive by its path, read with yauzl (a reader independent of yazl). */
export async function unzip(bytes: Buffer): Promise<Map<string, Buffer>> {
  const zip = await openZip(bytes);
  const files = new Map<string, Buffer>();
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: Entry) => {
      zip.openReadStream(entry, (error, stream) => {
        if (error !== null) {
          reject(error);
          return;
        }
        buffer(stream).then((content) => {
          files.set(entry.fileName, content);
          zip.readEntry();
        }, reject);
      });
    });
    zip.on('end', resolve);
    zip.on('error', reject);
    zip.readEntry();
  });
  return files;
}

/** The paths of the entries a zip archive holds as they are (method 0), not deflated. */
export async function storedEntries(bytes: Buffer): Promise<Set<string>> {
  const zip = await openZip(bytes);
  const stored = new Set<string>();
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: Entry) => {
      if (entry.compressionMethod === 0) stored.add(entry.fileName);
      zip.readEntry();
    });
    zip.on('end', resolve);
    zip.on('error', reject);
    zip.readEntry();
  });
  return stored;
}

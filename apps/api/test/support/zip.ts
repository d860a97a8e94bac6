import { buffer } from 'node:stream/consumers';
import { fromBuffer, type Entry, type ZipFile } from 'yauzl';

/** Walks a zip archive's entries in order with yauzl (a reader independent of yazl): `visit`
 *  resolves when the next entry may be read. */
async function eachEntry(
  bytes: Buffer,
  visit: (zip: ZipFile, entry: Entry) => Promise<void>,
): Promise<void> {
  const zip = await new Promise<ZipFile>((resolve, reject) => {
    fromBuffer(bytes, { lazyEntries: true }, (error, opened) => {
      if (error === null) resolve(opened);
      else reject(error);
    });
  });
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: Entry) => {
      visit(zip, entry).then(() => {
        zip.readEntry();
      }, reject);
    });
    zip.on('end', resolve);
    zip.on('error', reject);
    zip.readEntry();
  });
}

/** Every entry of a zip archive by its path. */
export async function unzip(bytes: Buffer): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  await eachEntry(
    bytes,
    (zip, entry) =>
      new Promise<void>((resolve, reject) => {
        zip.openReadStream(entry, (error, stream) => {
          if (error !== null) {
            reject(error);
            return;
          }
          buffer(stream).then((content) => {
            files.set(entry.fileName, content);
            resolve();
          }, reject);
        });
      }),
  );
  return files;
}

/** The paths of the entries a zip archive holds as they are (method 0), not deflated. */
export async function storedEntries(bytes: Buffer): Promise<Set<string>> {
  const stored = new Set<string>();
  await eachEntry(bytes, (_zip, entry) => {
    if (entry.compressionMethod === 0) stored.add(entry.fileName);
    return Promise.resolve();
  });
  return stored;
}

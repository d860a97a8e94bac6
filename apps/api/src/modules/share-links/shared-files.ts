import { createCipheriv, createDecipheriv, createHmac } from 'node:crypto';
import type { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import type {
  DentalAiResult,
  MedicalRecord,
  OralPhoto,
  Report,
  SharedReport,
} from '@dental/contracts';
import type { BlobStore } from '#api/adapters/blob-store/blob-store';
import { NotFound } from '#api/domain-errors';
import { filesPath, type LinkedFile, type SignedLinks } from '#api/lib/signed-links';

/** Where a recipient's file links are served: `<path><share link id>/<sealed key>?…&sig=…`. */
export const sharedFilesPath = '/api/shared-files/';

export const sharedFileGoneMessage = 'This file is no longer shared.';

export interface SharedFilesOptions {
  /** Where the links are served: `<path><scope id>/<sealed key>?…&sig=…`. */
  path: string;
  links: SignedLinks;
  /** At least 32 bytes: the file-link secret; a key to seal blob keys is derived from it. */
  secret: Uint8Array;
  blobs: BlobStore;
  /** Whether the scope (a share link, a staff member) may open the blob key now. */
  mayOpen: (scopeId: string, key: string) => Promise<boolean>;
  /** A DICOM file without the patient's and the clinic's names and IDs; absent, the original
   *  goes out as stored. */
  deidentifyDicom?: (bytes: Buffer) => Buffer;
}

/** What the route sends: the file's headers and its bytes. */
export interface SharedFile {
  file: LinkedFile;
  size: number;
  body: Readable | Buffer;
}

const sealIvBytes = 12;
const sealTagBytes = 16;

/**
 * A recipient's file links (docs/decisions/share-file-links.md). The owner's links name the blob
 * key, which holds the owner's member id; a recipient's name only their scope (a share link, or
 * a staff member of the practice: docs/decisions/care-team-access.md) and the key sealed
 * (AES-256-GCM), signed like every file link. They stop with the share, and for a share link a
 * DICOM original goes out de-identified while the member's own copy stays byte for byte.
 */
export class SharedFiles {
  private readonly sealKey: Buffer;
  private readonly ivKey: Buffer;

  constructor(private readonly options: SharedFilesOptions) {
    const derive = (purpose: string) =>
      createHmac('sha256', options.secret).update(purpose).digest();
    this.sealKey = derive('shared-file-keys');
    this.ivKey = derive('shared-file-key-ivs');
  }

  /** The photos, records, Dental AI results and reports with every file link replaced by one
   *  scoped to `scopeId`; a report without its PDF is left out. */
  scope(
    scopeId: string,
    items: {
      photos: OralPhoto[];
      records: MedicalRecord[];
      dentalAi?: DentalAiResult[];
      reports?: Report[];
    },
  ): {
    photos: OralPhoto[];
    records: MedicalRecord[];
    dentalAi: DentalAiResult[];
    reports: SharedReport[];
  } {
    const relink = (link: string) => this.relink(scopeId, link);
    return {
      reports: (items.reports ?? []).flatMap(({ id, kind, from, to, download_url }) =>
        download_url === null ? [] : [{ id, kind, from, to, download_url: relink(download_url) }],
      ),
      dentalAi: (items.dentalAi ?? []).map((result) => ({
        ...result,
        image_url: relink(result.image_url),
      })),
      photos: items.photos.map((photo) => ({
        ...photo,
        image_link: relink(photo.image_link),
        thumbnail_link: relink(photo.thumbnail_link),
        original_link: photo.original_link === null ? null : relink(photo.original_link),
      })),
      records: items.records.map((record) => ({
        ...record,
        medical_files: record.medical_files.map((file) => ({
          ...file,
          file_link: relink(file.file_link),
        })),
      })),
    };
  }

  /** The file a recipient's link names, while its scope may open it; else 404. */
  async open(path: string, query: Readonly<Record<string, unknown>>): Promise<SharedFile> {
    const { linked, scopeId, key } = this.verify(path, query);
    if (key === undefined || !(await this.options.mayOpen(scopeId, key))) {
      throw new NotFound(sharedFileGoneMessage);
    }
    const blob = await this.options.blobs.get(key);
    if (blob === null) throw new NotFound(sharedFileGoneMessage);
    const file = { ...linked, key };
    const { deidentifyDicom } = this.options;
    if (file.contentType !== 'application/dicom' || deidentifyDicom === undefined)
      return { file, size: blob.size, body: blob.stream };
    const copy = deidentifyDicom(await buffer(blob.stream));
    return { file, size: copy.length, body: copy };
  }

  /** The scope and blob key a link names once its signature is checked (403 otherwise); the
   *  key is undefined when the sealed part was not sealed here. */
  verify(
    path: string,
    query: Readonly<Record<string, unknown>>,
  ): { linked: LinkedFile; scopeId: string; key: string | undefined } {
    const linked = this.options.links.verify(path, query);
    const [scopeId = '', sealed = ''] = path.split('/');
    return { linked, scopeId, key: this.unseal(sealed) };
  }

  /** An owner's file link (as the photo, record and Dental AI modules sign it) as the scope's. */
  private relink(scopeId: string, ownerLink: string): string {
    const url = new URL(ownerLink, 'http://link.invalid');
    const key = decodeURIComponent(url.pathname.slice(filesPath.length));
    const file = this.options.links.verify(key, Object.fromEntries(url.searchParams));
    return this.options.links.signAt(this.options.path, {
      ...file,
      key: `${scopeId}/${this.seal(key)}`,
    });
  }

  private seal(key: string): string {
    // The IV comes from the key itself (a synthetic IV): a key always seals alike, so a list
    // fetched again carries the same links and the browser reuses its images, and two keys
    // never share an IV.
    const iv = createHmac('sha256', this.ivKey).update(key).digest().subarray(0, sealIvBytes);
    const cipher = createCipheriv('aes-256-gcm', this.sealKey, iv);
    const sealed = Buffer.concat([cipher.update(key, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
  }

  private unseal(sealed: string): string | undefined {
    const bytes = Buffer.from(sealed, 'base64url');
    if (bytes.length <= sealIvBytes + sealTagBytes) return undefined;
    try {
      const decipher = createDecipheriv(
        'aes-256-gcm',
        this.sealKey,
        bytes.subarray(0, sealIvBytes),
      );
      decipher.setAuthTag(bytes.subarray(sealIvBytes, sealIvBytes + sealTagBytes));
      return Buffer.concat([
        decipher.update(bytes.subarray(sealIvBytes + sealTagBytes)),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      return undefined;
    }
  }
}

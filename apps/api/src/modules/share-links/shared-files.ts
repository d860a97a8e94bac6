import { createCipheriv, createDecipheriv, createHmac } from 'node:crypto';
import type { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import type { MedicalRecord, OralPhoto } from '@dental/contracts';
import type { BlobStore } from '#api/adapters/blob-store/blob-store';
import { NotFound } from '#api/domain-errors';
import { filesPath, type LinkedFile, type SignedLinks } from '#api/lib/signed-links';

/** Where a recipient's file links are served: `<path><share link id>/<sealed key>?…&sig=…`. */
export const sharedFilesPath = '/api/shared-files/';

export const sharedFileGoneMessage = 'This file is no longer shared.';

export interface SharedFilesOptions {
  links: SignedLinks;
  /** At least 32 bytes: the file-link secret; a key to seal blob keys is derived from it. */
  secret: Uint8Array;
  blobs: BlobStore;
  /** The owner of the share link with this id while it is neither revoked nor expired. */
  activeShareOwner: (linkId: string) => Promise<string | undefined>;
  ownerIsActive: (key: string) => Promise<boolean>;
  /** A DICOM file without the patient's and the clinic's names and IDs. */
  deidentifyDicom: (bytes: Buffer) => Buffer;
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
 * key, which holds the owner's member id; a recipient's name only the share link and the key
 * sealed (AES-256-GCM), signed like every file link. They stop with the share, and a DICOM
 * original goes out de-identified while the member's own copy stays byte for byte.
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

  /** The photos and records with every file link replaced by one scoped to the share link. */
  scope(
    linkId: string,
    items: { photos: OralPhoto[]; records: MedicalRecord[] },
  ): { photos: OralPhoto[]; records: MedicalRecord[] } {
    const relink = (link: string) => this.relink(linkId, link);
    return {
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

  /** The file a recipient's link names, while its share link is active; else 404. */
  async open(path: string, query: Readonly<Record<string, unknown>>): Promise<SharedFile> {
    const linked = this.options.links.verify(path, query);
    const [linkId = '', sealed = ''] = path.split('/');
    const key = this.unseal(sealed);
    const owner = await this.options.activeShareOwner(linkId);
    if (
      key === undefined ||
      owner === undefined ||
      !key.startsWith(`users/${owner}/`) ||
      !(await this.options.ownerIsActive(key))
    ) {
      throw new NotFound(sharedFileGoneMessage);
    }
    const blob = await this.options.blobs.get(key);
    if (blob === null) throw new NotFound(sharedFileGoneMessage);
    const file = { ...linked, key };
    if (file.contentType !== 'application/dicom')
      return { file, size: blob.size, body: blob.stream };
    const copy = this.options.deidentifyDicom(await buffer(blob.stream));
    return { file, size: copy.length, body: copy };
  }

  /** An owner's file link (as the photo and record modules sign it) as the share's. */
  private relink(linkId: string, ownerLink: string): string {
    const url = new URL(ownerLink, 'http://link.invalid');
    const key = decodeURIComponent(url.pathname.slice(filesPath.length));
    const file = this.options.links.verify(key, Object.fromEntries(url.searchParams));
    return this.options.links.signAt(sharedFilesPath, {
      ...file,
      key: `${linkId}/${this.seal(key)}`,
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

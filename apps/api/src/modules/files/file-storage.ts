import { randomUUID } from 'node:crypto';
import type { BlobStore } from '#api/adapters/blob-store/blob-store';
import type { LinkedFile, SignedLinks } from '#api/lib/signed-links';
import type { ErrorLogger } from '#api/logger';

/** Every member's file key starts with this. */
export const userFilesPrefix = 'users/';
/** Every image a doctor attaches to a consultation summary starts with this (clinic command). */
export const complaintImagePrefix = 'consultations/';
/** The orphan sweep lists only these, so nothing else in a shared bucket is ever touched. */
export const sweptPrefixes = [userFilesPrefix, complaintImagePrefix] as const;

export type FileArea = 'oral-photo' | 'medical-records' | 'dental-ai';

/** `users/<userId>/<area>/<uuid>.<ext>` (docs/decisions/blob-store.md); unique per upload. */
export function newBlobKey(userId: string, area: FileArea, extension: string): string {
  return `${userFilesPrefix}${userId}/${area}/${randomUUID()}.${extension}`;
}

/** The file extension a blob key ends in (the accepted type's, see newBlobKey). */
export function extensionOfKey(key: string): string {
  return key.slice(key.lastIndexOf('.') + 1);
}

/** A photo's thumbnail lives beside its original. */
export function thumbnailKeyOf(key: string): string {
  return `${key}.thumb.webp`;
}

/** The DICOM file an X-ray was rendered from lives beside the rendering. */
export function originalKeyOf(key: string, extension: string): string {
  return `${key}.original.${extension}`;
}

export interface BlobToStore {
  key: string;
  bytes: Uint8Array;
  contentType: string;
}

/**
 * The write order that leaves no orphan uncollected (docs/decisions/file-write-order.md): blobs
 * are written before the row that refers to them and removed after the row is gone. A failure
 * in between leaves only blobs without a row, which the orphan sweep removes.
 */
export class FileStorage {
  constructor(
    private readonly blobs: BlobStore,
    private readonly links: SignedLinks,
    private readonly log: ErrorLogger,
    /** Told the bytes stored for each feature (metrics). */
    private readonly countStored: (area: string, bytes: number) => void = () => undefined,
  ) {}

  /** Writes every blob; if one fails, those already written are removed again. */
  async put(files: readonly BlobToStore[]): Promise<void> {
    const results = await Promise.allSettled(
      files.map((file) => this.blobs.put(file.key, file.bytes, file.contentType)),
    );
    const failed = results.find((result) => result.status === 'rejected');
    if (failed) {
      await this.discard(files.map((file) => file.key));
      const reason: unknown = failed.reason;
      throw reason;
    }
    // `users/<userId>/<area>/…` (newBlobKey); other keys are not members' uploads.
    for (const file of files) {
      const [prefix, , area] = file.key.split('/');
      if (`${prefix}/` === userFilesPrefix && area !== undefined) {
        this.countStored(area, file.bytes.byteLength);
      }
    }
  }

  /**
   * Removes blobs whose rows are gone (or were never written). A failure is logged, not thrown:
   * the row change has happened, and the sweep removes what is left behind.
   */
  async discard(keys: readonly string[]): Promise<void> {
    const results = await Promise.allSettled(keys.map((key) => this.blobs.delete(key)));
    results.forEach((result, index) => {
      if (result.status === 'rejected') {
        this.log.error(
          { err: result.reason as unknown, key: keys[index] },
          'a blob could not be deleted; the orphan sweep will remove it',
        );
      }
    });
  }

  /** A short-lived signed link to a stored file (docs/decisions/signed-file-links.md). */
  link(file: LinkedFile): string {
    return this.links.sign(file);
  }
}

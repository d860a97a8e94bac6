import type { Readable } from 'node:stream';

/** A stored object opened for reading. */
export interface BlobContent {
  stream: Readable;
  /** Length of the stream in bytes. */
  size: number;
}

/** One stored object, as a sweep for orphans sees it. */
export interface BlobListing {
  key: string;
  size: number;
  modifiedAt: Date;
}

/**
 * Where uploaded files live: local disk by default, an S3-compatible bucket in production
 * (docs/decisions/architecture.md#services-and-embedded-defaults). Keys are chosen by services (see
 * `assertValidBlobKey`); a key names one object.
 */
export interface BlobStore {
  /**
   * Stores the bytes under the key, replacing what was there; a reader never sees a partial
   * object. The content type is kept where the backend has object metadata (S3); callers keep
   * the type in their own rows too, since the local store keeps bytes only.
   */
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** `put` for a file on local disk too large to hold in memory (a data export): it is read as
   *  a stream. */
  putFile(key: string, filePath: string, contentType: string): Promise<void>;
  /** Opens the object for reading; null when there is none under the key. */
  get(key: string): Promise<BlobContent | null>;
  /** Removes the object; removing one that is not there is not an error. */
  delete(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
  /** Every object whose key starts with the prefix ('' for all), in no particular order. */
  list(prefix: string): AsyncIterable<BlobListing>;
  /**
   * Removes what interrupted writes left behind before `olderThan` (a write in progress is
   * younger); answers how many were removed.
   */
  removeAbandonedTempFiles(olderThan: Date): Promise<number>;
  /** Throws when the store cannot be reached (readiness probe); cheap, reads no object. */
  ping(): Promise<void>;
  /** Releases what the store holds open (connections) at shutdown. */
  close(): void;
}

/** A key that could escape the store's root or is not portable: a bug in the caller. */
export class InvalidBlobKey extends Error {
  override name = 'InvalidBlobKey';
}

// Portable on every filesystem and in S3 without escaping. A segment may not start with a dot,
// which rules out '.', '..' and the local store's temporary files.
const keySegment = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}$/;
const maxKeyLength = 1024;

/** Keys are '/'-separated segments of letters, digits, '.', '_' and '-', not starting with '.'. */
export function assertValidBlobKey(key: string): void {
  if (key.length > maxKeyLength || !key.split('/').every((segment) => keySegment.test(segment))) {
    throw new InvalidBlobKey(`Invalid blob key ${JSON.stringify(key.slice(0, 100))}`);
  }
}

/** A listing prefix is '', a valid key, or a valid key followed by '/'. */
export function assertValidBlobPrefix(prefix: string): void {
  if (prefix === '') return;
  assertValidBlobKey(prefix.endsWith('/') ? prefix.slice(0, -1) : prefix);
}

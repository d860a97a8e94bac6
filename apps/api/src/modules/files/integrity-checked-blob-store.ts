import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { BlobContent, BlobListing, BlobStore } from '#api/adapters/blob-store/blob-store';
import { DomainError } from '#api/domain-errors';
import type { Database } from '#api/db/client';
import type { ErrorLogger } from '#api/logger';
import { FileDigestRepository } from './file-digests.repository';

export const integrityFailureMessage =
  'The stored file failed its integrity check, so it is not shown. Please contact support.';

/**
 * A stored file whose bytes no longer have the SHA-256 recorded when it was stored: answered as
 * a 500 problem instead of the wrong bytes (docs/decisions/file-integrity.md). The audit trail
 * records it through `IntegrityCheckOptions.onMismatch`.
 */
export class FileIntegrityError extends DomainError {
  readonly status = 500;

  constructor(readonly blobKey: string) {
    super(integrityFailureMessage);
  }
}

export interface IntegrityMismatch {
  blobKey: string;
  expectedSha256: string;
  actualSha256: string;
}

export interface IntegrityCheckOptions {
  /** Told of every mismatch before the error is thrown (the log, the audit trail). */
  onMismatch?: (mismatch: IntegrityMismatch) => void | Promise<void>;
}

export interface VerifyFilesReport {
  checked: number;
  /** Files whose bytes differ from their recorded digest. */
  mismatched: string[];
  /** Files stored before digests were kept (or written around this store). */
  withoutDigest: string[];
}

export const sha256Hex = (bytes: Uint8Array): string =>
  createHash('sha256').update(bytes).digest('hex');

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/**
 * The blob store every feature uses: records each file's SHA-256 when it is written, and reads a
 * file whole and checks it before handing out a single byte (files are at most 10 MB). A file
 * stored before digests were kept has none and is served as it is; `npm run verify-files
 * -- --record-missing` adopts those.
 */
export class IntegrityCheckedBlobStore implements BlobStore {
  constructor(
    private readonly inner: BlobStore,
    private readonly digests: FileDigestRepository,
    private readonly options: IntegrityCheckOptions = {},
  ) {}

  async put(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
    await this.inner.put(key, bytes, contentType);
    try {
      await this.digests.record(key, { sha256: sha256Hex(bytes), sizeBytes: bytes.byteLength });
    } catch (error) {
      // A file without its digest is not stored: the caller sees the failure and writes no row.
      await this.inner.delete(key).catch(() => undefined);
      throw error;
    }
  }

  async get(key: string): Promise<BlobContent | null> {
    const [blob, digest] = await Promise.all([this.inner.get(key), this.digests.find(key)]);
    if (blob === null || digest === undefined) return blob;
    const bytes = await readAll(blob.stream);
    await this.check(key, bytes, digest.sha256);
    return { stream: Readable.from([bytes]), size: bytes.length };
  }

  /** Throws FileIntegrityError when the bytes are not the ones recorded for the key. */
  async check(key: string, bytes: Uint8Array, expectedSha256: string): Promise<void> {
    const actualSha256 = sha256Hex(bytes);
    if (actualSha256 === expectedSha256) return;
    await this.options.onMismatch?.({ blobKey: key, expectedSha256, actualSha256 });
    throw new FileIntegrityError(key);
  }

  /**
   * Checks every stored file under the prefixes against its digest (`npm run verify-files`);
   * `recordMissing` records the digest of files stored before digests were kept.
   */
  async verifyAll(
    prefixes: readonly string[],
    { recordMissing = false }: { recordMissing?: boolean } = {},
  ): Promise<VerifyFilesReport> {
    const report: VerifyFilesReport = { checked: 0, mismatched: [], withoutDigest: [] };
    for (const prefix of prefixes) {
      for await (const listing of this.inner.list(prefix)) {
        const blob = await this.inner.get(listing.key);
        if (blob === null) continue;
        const bytes = await readAll(blob.stream);
        const digest = await this.digests.find(listing.key);
        report.checked += 1;
        if (digest === undefined) {
          report.withoutDigest.push(listing.key);
          if (recordMissing) {
            await this.digests.record(listing.key, {
              sha256: sha256Hex(bytes),
              sizeBytes: bytes.length,
            });
          }
          continue;
        }
        try {
          await this.check(listing.key, bytes, digest.sha256);
        } catch (error) {
          if (!(error instanceof FileIntegrityError)) throw error;
          report.mismatched.push(listing.key);
        }
      }
    }
    return report;
  }

  async delete(key: string): Promise<void> {
    await this.inner.delete(key);
    await this.digests.remove(key);
  }

  exists(key: string): Promise<boolean> {
    return this.inner.exists(key);
  }

  list(prefix: string): AsyncIterable<BlobListing> {
    return this.inner.list(prefix);
  }

  removeAbandonedTempFiles(olderThan: Date): Promise<number> {
    return this.inner.removeAbandonedTempFiles(olderThan);
  }

  ping(): Promise<void> {
    return this.inner.ping();
  }

  close(): void {
    this.inner.close();
  }
}

/** The store as every process builds it: a mismatch goes to the error log (with the key only). */
export function integrityChecked(
  inner: BlobStore,
  db: Database,
  log: ErrorLogger,
  onMismatch?: IntegrityCheckOptions['onMismatch'],
): IntegrityCheckedBlobStore {
  return new IntegrityCheckedBlobStore(inner, new FileDigestRepository(db), {
    onMismatch: async (mismatch) => {
      log.error({ blobKey: mismatch.blobKey }, 'a stored file failed its integrity check');
      await onMismatch?.(mismatch);
    },
  });
}

import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { Readable, Transform } from 'node:stream';
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

/** Files up to this size are read whole and checked before a byte is served; larger ones (data
 *  exports) are checked as they stream (see `get`). */
const wholeReadLimitBytes = 16 * 1024 * 1024;

async function digestOf(stream: Readable): Promise<{ sha256: string; sizeBytes: number }> {
  const hash = createHash('sha256');
  let sizeBytes = 0;
  for await (const chunk of stream) {
    hash.update(chunk as Uint8Array);
    sizeBytes += (chunk as Uint8Array).byteLength;
  }
  return { sha256: hash.digest('hex'), sizeBytes };
}

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

  async putFile(key: string, filePath: string, contentType: string): Promise<void> {
    await this.inner.putFile(key, filePath, contentType);
    try {
      await this.digests.record(key, await digestOf(createReadStream(filePath)));
    } catch (error) {
      await this.inner.delete(key).catch(() => undefined);
      throw error;
    }
  }

  async get(key: string): Promise<BlobContent | null> {
    const [blob, digest] = await Promise.all([this.inner.get(key), this.digests.find(key)]);
    if (blob === null || digest === undefined) return blob;
    if (blob.size > wholeReadLimitBytes) {
      return {
        stream: this.checkedWhileStreaming(key, blob.stream, digest.sha256),
        size: blob.size,
      };
    }
    const bytes = await readAll(blob.stream);
    await this.check(key, bytes, digest.sha256);
    return { stream: Readable.from([bytes]), size: bytes.length };
  }

  /**
   * Too large to hold in memory: the bytes pass through as they are read and the stream ends in
   * an error instead of its last bytes when the whole does not match, so a client never sees a
   * complete transfer of a changed file (a zip without its end is not a zip).
   */
  private checkedWhileStreaming(key: string, source: Readable, expectedSha256: string): Readable {
    const hash = createHash('sha256');
    let held: Uint8Array | undefined;
    const checked = new Transform({
      transform(chunk: Uint8Array, _encoding, done) {
        hash.update(chunk);
        // One chunk is held back, so that the last one is only sent once the digest matched.
        const previous = held;
        held = chunk;
        done(null, previous);
      },
      flush: (done) => {
        this.compare(key, expectedSha256, hash.digest('hex')).then(
          () => {
            done(null, held);
          },
          (error: unknown) => {
            done(error as Error);
          },
        );
      },
    });
    source.on('error', (error) => checked.destroy(error));
    return source.pipe(checked);
  }

  /** Throws FileIntegrityError when the bytes are not the ones recorded for the key. */
  async check(key: string, bytes: Uint8Array, expectedSha256: string): Promise<void> {
    await this.compare(key, expectedSha256, sha256Hex(bytes));
  }

  private async compare(key: string, expectedSha256: string, actualSha256: string): Promise<void> {
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
        const actual = await digestOf(blob.stream);
        const digest = await this.digests.find(listing.key);
        report.checked += 1;
        if (digest === undefined) {
          report.withoutDigest.push(listing.key);
          if (recordMissing) await this.digests.record(listing.key, actual);
          continue;
        }
        try {
          await this.compare(listing.key, digest.sha256, actual.sha256);
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

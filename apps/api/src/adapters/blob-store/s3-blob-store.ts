import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
import { LoadOnce } from '#api/lib/load-once';
import {
  assertValidBlobKey,
  assertValidBlobPrefix,
  type BlobContent,
  type BlobListing,
  type BlobStore,
} from './blob-store';

export interface S3BlobStoreOptions {
  bucket: string;
  region: string;
  /** For S3-compatible servers (MinIO, Ceph, R2…); unset means AWS. */
  endpoint?: string;
  /** Unset means the SDK's default credential chain (environment, instance role). */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** `bucket` in the path instead of the host name, which most S3-compatible servers need. */
  forcePathStyle?: boolean;
}

/** Objects in one bucket of Amazon S3 or an S3-compatible server; a key is the object key. */
export class S3BlobStore implements BlobStore {
  private readonly bucket: string;
  /** The SDK and its client, loaded on the first call rather than at start. */
  private readonly s3: LoadOnce<{ sdk: typeof import('@aws-sdk/client-s3'); client: S3Client }>;
  /** The client once the first call made it, so that close() can stay synchronous. */
  private opened: S3Client | undefined;

  constructor(options: S3BlobStoreOptions) {
    this.bucket = options.bucket;
    this.s3 = new LoadOnce(async () => {
      const sdk = await import('@aws-sdk/client-s3');
      const client = new sdk.S3Client({
        region: options.region,
        endpoint: options.endpoint,
        forcePathStyle: options.forcePathStyle ?? false,
        // A streamed body would otherwise be sent as 'aws-chunked' with a trailing CRC, which some
        // S3-compatible servers (s3rver among them) store verbatim. Our own SHA-256 digest checks
        // every object (docs/decisions/file-integrity.md).
        requestChecksumCalculation: 'WHEN_REQUIRED',
        credentials:
          options.accessKeyId !== undefined && options.secretAccessKey !== undefined
            ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey }
            : undefined,
      });
      this.opened = client;
      return { sdk, client };
    });
  }

  async put(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
    assertValidBlobKey(key);
    const { sdk, client } = await this.s3.get();
    await client.send(
      new sdk.PutObjectCommand({
        Bucket: this.bucket,
        Key: key,
        Body: bytes,
        ContentType: contentType,
        ContentLength: bytes.byteLength,
      }),
    );
  }

  async putFile(key: string, filePath: string, contentType: string): Promise<void> {
    assertValidBlobKey(key);
    // A single PUT takes up to 5 GB; an export is far below that, and the length lets the SDK
    // stream the body instead of buffering it.
    const { size } = await stat(filePath);
    const { sdk, client } = await this.s3.get();
    await client.send(
      new sdk.PutObjectCommand({
        Bucket: this.bucket,
        Key: key,
        Body: createReadStream(filePath),
        ContentType: contentType,
        ContentLength: size,
      }),
    );
  }

  async get(key: string): Promise<BlobContent | null> {
    assertValidBlobKey(key);
    const { sdk, client } = await this.s3.get();
    try {
      const object = await client.send(new sdk.GetObjectCommand({ Bucket: this.bucket, Key: key }));
      // In Node.js the SDK answers with an http.IncomingMessage, which is a Readable.
      if (!(object.Body instanceof Readable) || object.ContentLength === undefined) {
        throw new Error(`S3 answered GetObject for ${key} without a readable body and length`);
      }
      return { stream: object.Body, size: object.ContentLength };
    } catch (error) {
      // NoSuchKey only: a missing bucket or a denied read must fail loudly, not look empty.
      if (error instanceof sdk.NoSuchKey) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    assertValidBlobKey(key);
    // S3 answers 204 for a key that is not there, so deleting twice is harmless.
    const { sdk, client } = await this.s3.get();
    await client.send(new sdk.DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async exists(key: string): Promise<boolean> {
    assertValidBlobKey(key);
    const { sdk, client } = await this.s3.get();
    try {
      await client.send(new sdk.HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return true;
    } catch (error) {
      if (error instanceof sdk.NotFound) return false;
      throw error;
    }
  }

  async *list(prefix: string): AsyncIterable<BlobListing> {
    assertValidBlobPrefix(prefix);
    const { sdk, client } = await this.s3.get();
    const pages = sdk.paginateListObjectsV2({ client }, { Bucket: this.bucket, Prefix: prefix });
    for await (const page of pages) {
      for (const object of page.Contents ?? []) {
        if (object.Key === undefined) continue;
        // S3 always sends both; should one be missing, "now" keeps a sweep from deleting early.
        yield {
          key: object.Key,
          size: object.Size ?? 0,
          modifiedAt: object.LastModified ?? new Date(),
        };
      }
    }
  }

  /** An S3 PUT is atomic: an interrupted one leaves nothing behind. */
  removeAbandonedTempFiles(): Promise<number> {
    return Promise.resolve(0);
  }

  /** HEAD on the bucket: it exists and these credentials may use it. */
  async ping(): Promise<void> {
    const { sdk, client } = await this.s3.get();
    await client.send(new sdk.HeadBucketCommand({ Bucket: this.bucket }));
  }

  /** Closes the client's connections (at shutdown), if it was ever opened. */
  close(): void {
    this.opened?.destroy();
  }
}

import path from 'node:path';
import type { BlobStore } from '../../adapters/blob-store/blob-store';
import { LocalBlobStore } from '../../adapters/blob-store/local-blob-store';
import { S3BlobStore } from '../../adapters/blob-store/s3-blob-store';
import type { Config } from '../../config';

/** The configured store: the S3 bucket when S3_BUCKET is set, else DATA_DIR/blobs. */
export function createBlobStore(config: Pick<Config, 's3' | 'dataDir'>): BlobStore {
  return config.s3 === undefined
    ? new LocalBlobStore(path.join(config.dataDir, 'blobs'))
    : new S3BlobStore(config.s3);
}

/** Releases what the store holds open (the S3 client's connections) at shutdown. */
export function closeBlobStore(store: BlobStore): void {
  if (store instanceof S3BlobStore) store.destroy();
}

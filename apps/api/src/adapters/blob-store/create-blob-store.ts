import path from 'node:path';
import type { Config } from '#api/config';
import type { BlobStore } from './blob-store';
import { LocalBlobStore } from './local-blob-store';
import { S3BlobStore } from './s3-blob-store';

/** The configured store: the S3 bucket when S3_BUCKET is set, else DATA_DIR/blobs. */
export function createBlobStore(config: Pick<Config, 's3' | 'dataDir'>): BlobStore {
  return config.s3 === undefined
    ? new LocalBlobStore(path.join(config.dataDir, 'blobs'))
    : new S3BlobStore(config.s3);
}

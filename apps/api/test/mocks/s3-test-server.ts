import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import type { S3BlobStoreOptions } from '#api/adapters/blob-store/s3-blob-store';

/** A running S3-compatible server for tests, with the options that reach one of its buckets. */
export interface S3TestServer {
  options: S3BlobStoreOptions;
  close(): Promise<void>;
}

/**
 * Starts s3rver (a real S3 REST implementation over local files) on an ephemeral port of
 * 127.0.0.1 with one empty bucket (docs/decisions/s3-compatible-test-server.md).
 */
export async function startS3TestServer(bucket = 'dental-test'): Promise<S3TestServer> {
  const directory = await mkdtemp(path.join(tmpdir(), 'dental-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  return {
    options: {
      bucket,
      region: 'us-east-1',
      endpoint: `http://127.0.0.1:${port}`,
      // s3rver's fixed credentials; it checks request signatures against them.
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      forcePathStyle: true,
    },
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

import { HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeBlobStore } from '#api-test/support/blob-store.behaviour';
import { S3BlobStore } from './s3-blob-store';
import { startS3TestServer, type S3TestServer } from '#api-test/mocks/s3-test-server';

describeBlobStore('S3BlobStore on s3rver', async () => {
  const server = await startS3TestServer();
  const store = new S3BlobStore(server.options);
  return {
    store,
    close: async () => {
      store.close();
      await server.close();
    },
  };
});

describe('S3BlobStore specifics', () => {
  let server: S3TestServer;

  beforeAll(async () => {
    server = await startS3TestServer('dental-specifics');
  });
  afterAll(async () => {
    await server.close();
  });

  it('stores the content type as object metadata', async () => {
    const store = new S3BlobStore(server.options);
    const raw = new S3Client({
      region: server.options.region,
      endpoint: server.options.endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    });
    try {
      await store.put('u/scan.pdf', Buffer.from('%PDF-1.4'), 'application/pdf');
      const head = await raw.send(
        new HeadObjectCommand({ Bucket: server.options.bucket, Key: 'u/scan.pdf' }),
      );
      expect(head.ContentType).toBe('application/pdf');
      expect(head.ContentLength).toBe(8);
    } finally {
      raw.destroy();
      store.close();
    }
  });

  it('fails loudly for a missing bucket instead of reporting the object missing', async () => {
    const store = new S3BlobStore({ ...server.options, bucket: 'no-such-bucket' });
    try {
      await expect(store.get('u/photo.jpg')).rejects.toThrow();
      await expect(store.put('u/photo.jpg', Buffer.from('x'), 'image/jpeg')).rejects.toThrow();
      await expect(store.ping()).rejects.toThrow();
    } finally {
      store.close();
    }
  });

  // s3rver checks the access key id but not the SigV4 signature itself (see the decision record).
  it('sends the configured access key', async () => {
    const store = new S3BlobStore({ ...server.options, accessKeyId: 'UNKNOWN' });
    try {
      await expect(store.put('u/photo.jpg', Buffer.from('x'), 'image/jpeg')).rejects.toThrow(
        /Access Key Id/,
      );
    } finally {
      store.close();
    }
  });
});

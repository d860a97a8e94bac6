import { describe, expect, it } from 'vitest';
import { dataUrlOf, makePng } from '#api-test/fixtures/upload-test-files';
import { DecodePool, DecodersBusy, decodeBusyMessage } from './decode-pool';
import { UploadAcceptance } from './upload-acceptance';
import { PayloadTooLarge } from './upload-errors';

/** A promise and the function that settles it, to hold a decode slot as long as a test wants. */
function gate() {
  let open: (() => void) | undefined;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return {
    promise,
    open: () => {
      open?.();
    },
  };
}

describe('the pixel cap', () => {
  it('refuses an image above 40 megapixels by default (413), however small the file', async () => {
    const png = await makePng(6400, 6400);
    expect(png.length).toBeLessThan(1_000_000);
    const error = await new UploadAcceptance()
      .acceptImage(dataUrlOf(png, 'image/png'))
      .catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(PayloadTooLarge);
    expect(error).toMatchObject({
      status: 413,
      detail: 'The image is too large. Please upload an image of at most 40 megapixels.',
    });
  });
});

describe('DecodePool', () => {
  it('runs at most `concurrency` at once, queues up to `queueLimit`, refuses beyond with 503', async () => {
    const pool = new DecodePool({ concurrency: 1, queueLimit: 1, retryAfterSeconds: 7 });
    const first = gate();
    const order: string[] = [];
    const running = pool.run(async () => {
      order.push('first started');
      await first.promise;
      order.push('first done');
    });
    const queued = pool.run(() => {
      order.push('second started');
      return Promise.resolve();
    });
    const refused = await pool.run(() => Promise.resolve()).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DecodersBusy);
    expect(refused).toMatchObject({ status: 503, retryAfterSeconds: 7, detail: decodeBusyMessage });
    expect(order).toEqual(['first started']);
    first.open();
    await Promise.all([running, queued]);
    expect(order).toEqual(['first started', 'first done', 'second started']);
    // Every slot is free again.
    await expect(pool.run(() => Promise.resolve('again'))).resolves.toBe('again');
  });

  it('frees the slot of a decode that fails', async () => {
    const pool = new DecodePool({ concurrency: 1, queueLimit: 0 });
    await expect(pool.run(() => Promise.reject(new Error('bad image')))).rejects.toThrow(
      'bad image',
    );
    await expect(pool.run(() => Promise.resolve(1))).resolves.toBe(1);
  });

  it('is what an upload waits for: a full pool refuses the upload with 503 and Retry-After', async () => {
    const pool = new DecodePool({ concurrency: 1, queueLimit: 0, retryAfterSeconds: 3 });
    const uploads = new UploadAcceptance({ decodePool: pool });
    const held = gate();
    const holding = pool.run(() => held.promise);
    const link = dataUrlOf(await makePng(), 'image/png');
    await expect(uploads.acceptImage(link)).rejects.toMatchObject({
      status: 503,
      retryAfterSeconds: 3,
    });
    await expect(uploads.acceptImageForDetection(link)).rejects.toBeInstanceOf(DecodersBusy);
    held.open();
    await holding;
    await expect(uploads.acceptImage(link)).resolves.toMatchObject({ kind: 'image' });
  });
});

import type { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { dicomDataUrl, makeDeflatedDicom, makeDicom } from '#api-test/fixtures/dicom-test-files';
import { DicomReader, dicomTooSlowMessage } from './dicom-reader';
import { dicomTooComplexMessage } from './dicom-structure';
import { UploadAcceptance } from './upload-acceptance';

/** 40 megapixels of 16 bits deflated to 78 KB: within every limit, and seconds of work to read. */
const slowFile = dicomDataUrl(
  makeDeflatedDicom({
    width: 6400,
    height: 6250,
    values: [],
    pixelData: new Uint8Array(6400 * 6250 * 2),
  }),
);
const xray = dicomDataUrl(makeDicom({ width: 2, height: 2, values: [0, 1000, 2000, 4095] }));

/** An explicit-VR LT element of a private tag holding 200 characters. */
function privateText(index: number): Buffer {
  const element = Buffer.alloc(8 + 200, 'x');
  element.writeUInt16LE(0x0009, 0);
  element.writeUInt16LE(0x1000 + index, 2);
  element.write('LT', 4, 'latin1');
  element.writeUInt16LE(200, 6);
  return element;
}

/** What `work` settles to, and the longest the event loop stood still meanwhile (1 ms timer). */
async function watchEventLoop(
  work: Promise<unknown>,
): Promise<{ outcome: unknown; stillMs: number }> {
  let last = performance.now();
  let stillMs = 0;
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    const now = performance.now();
    stillMs = Math.max(stillMs, now - last);
    last = now;
    timer = setTimeout(tick, 1);
  };
  timer = setTimeout(tick, 1);
  const outcome = await work.catch((error: unknown) => error);
  clearTimeout(timer);
  return { outcome, stillMs: Math.max(stillMs, performance.now() - last) };
}

// A thread reads the worker's TypeScript through tsx as it starts: seconds on a busy machine.
describe('DICOM files read in worker threads', { timeout: 30_000 }, () => {
  it('ends a read past its time limit with a 415 while the event loop turns, and reads the next file on a fresh thread', async () => {
    // Well under the file's read on a quiet machine (about a second), so the limit always ends
    // it; a limit near that read passed the file on a quiet machine and failed the test.
    const timeLimitMs = 200;
    const uploads = new UploadAcceptance({ dicomTimeLimitMs: timeLimitMs });
    try {
      const { outcome, stillMs } = await watchEventLoop(uploads.acceptPhotoOrDicom(slowFile));
      expect(outcome).toMatchObject({ status: 415, detail: dicomTooSlowMessage });
      // The read held another thread: this one never stood still for anything like a read.
      expect(stillMs).toBeLessThan(1000);
      await expect(uploads.acceptPhotoOrDicom(xray)).resolves.toMatchObject({
        contentType: 'image/png',
        width: 2,
        height: 2,
      });
    } finally {
      await uploads.close();
    }
  });

  it('refuses a file that needs more memory than its thread has (415), and reads the next one', async () => {
    const uploads = new UploadAcceptance({ dicomHeapLimitMb: 32 });
    // 45,000 texts of 200 characters: under the element limit, tens of megabytes once parsed.
    const crowded = Buffer.concat([
      makeDicom({ width: 1, height: 1, values: [0], withoutPixels: true }),
      ...Array.from({ length: 45_000 }, (_, index) => privateText(index)),
    ]);
    try {
      await expect(uploads.acceptPhotoOrDicom(dicomDataUrl(crowded))).rejects.toMatchObject({
        status: 415,
        detail: dicomTooComplexMessage,
      });
      await expect(uploads.acceptPhotoOrDicom(xray)).resolves.toMatchObject({ width: 2 });
    } finally {
      await uploads.close();
    }
  });

  it('logs a thread failing outside a read instead of ending the process', async () => {
    const logged: string[] = [];
    const reader = new DicomReader({
      threads: 1,
      timeLimitMs: 1000,
      heapLimitMb: 64,
      log: {
        error: (_details, message) => {
          logged.push(message);
        },
      },
    });
    try {
      // Piscina's own event for such a failure, raised on the pool as Piscina raises it: the pool
      // is a third-party emitter, reached here without a seam of our own.
      const { pool } = reader as unknown as { pool: EventEmitter };
      expect(pool.listenerCount('error')).toBeGreaterThan(0);
      pool.emit('error', new Error('worker exited while idle'));
      expect(logged).toEqual(['a DICOM worker thread failed outside a read']);
    } finally {
      await reader.close();
    }
  });
});

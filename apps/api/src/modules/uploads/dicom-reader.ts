import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { stderrLogger, type ErrorLogger } from '#api/logger';
import type { RenderedDicom } from './dicom';
import { dicomTooComplexMessage } from './dicom-structure';
import type { DicomReading, DicomTask } from './dicom-worker';
import { PayloadTooLarge, UnsupportedMediaType } from './upload-errors';

export const dicomTooSlowMessage =
  'This DICOM file takes the app too long to read. Please ask the clinic for a plain copy of the X-ray.';

/** A worker thread starts in half a second (seconds under tsx on a busy machine); one that has
 *  not picked a read up by then will not, and the upload fails as the server's fault rather than
 *  waiting for ever. */
const startLimitMs = 30_000;

export interface DicomReaderOptions {
  /** Files read at once: one thread each. */
  threads: number;
  /** Longest one read may take once its thread has started it; its thread is then ended. */
  timeLimitMs: number;
  /** The JS heap of a thread, in MiB: a file that needs more ends its thread. */
  heapLimitMb: number;
  log?: ErrorLogger;
}

/**
 * The worker's script beside this module: in the bundle (scripts/build.mjs) dicom-worker.js, run
 * as it is; from source (tests, tsx), the TypeScript file, which the thread reads through tsx.
 */
function workerScript(): { filename: string; execArgv?: string[] } {
  if (!import.meta.url.endsWith('.ts')) {
    return { filename: new URL('./dicom-worker.js', import.meta.url).href };
  }
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return {
    filename: new URL('./dicom-worker.ts', import.meta.url).href,
    execArgv: ['--import', tsx],
  };
}

/**
 * Parses and renders DICOM files in worker threads (docs/decisions/dicom-import.md), so that a
 * file that takes seconds holds a thread, not the API's event loop, and a time limit can end it:
 * a thread stuck in synchronous code cannot be interrupted, only ended.
 */
export class DicomReader {
  private readonly pool: Piscina;
  private readonly timeLimitMs: number;

  constructor(options: DicomReaderOptions) {
    this.timeLimitMs = options.timeLimitMs;
    this.pool = new Piscina({
      ...workerScript(),
      // Threads start with the first DICOM upload, so an app that never gets one pays nothing.
      minThreads: 0,
      maxThreads: options.threads,
      idleTimeout: 60_000,
      resourceLimits: { maxOldGenerationSizeMb: options.heapLimitMb },
    });
    // A thread that fails with no read to fail is reported as the pool's 'error' event; unheard,
    // it would end the process (docs/decisions/stream-error-paths.md). The pool replaces it.
    const log = options.log ?? stderrLogger;
    this.pool.on('error', (error: unknown) => {
      log.error({ err: error }, 'a DICOM worker thread failed outside a read');
    });
  }

  /** The file's first frame rendered, or the 413 or 415 its reading ended in. */
  async read(bytes: Buffer, maxPixels: number): Promise<RenderedDicom> {
    const outcome = await this.run(bytes, maxPixels);
    if ('refused' in outcome) {
      const { status, detail } = outcome.refused;
      throw status === 413 ? new PayloadTooLarge(detail) : new UnsupportedMediaType(detail);
    }
    const { pixels } = outcome.rendered;
    return {
      ...outcome.rendered,
      pixels: Buffer.from(pixels.buffer, pixels.byteOffset, pixels.byteLength),
    };
  }

  /** One read on a thread within its limits; a thread that fails fails this read alone. */
  private async run(bytes: Buffer, maxPixels: number): Promise<DicomReading> {
    const abort = new AbortController();
    const abortAfter = (ms: number, reason: 'not started' | 'time limit') =>
      setTimeout(() => {
        abort.abort(reason);
      }, ms);
    const { port1: started, port2 } = new MessageChannel();
    let timer = abortAfter(startLimitMs, 'not started');
    // The time limit runs from the read's start, not the thread's: a thread that has to start
    // first takes half a second (seconds under tsx).
    started.once('message', () => {
      clearTimeout(timer);
      timer = abortAfter(this.timeLimitMs, 'time limit');
    });
    // A copy moves to the thread: the original is stored once it has been read.
    const copy = new Uint8Array(bytes);
    const task: DicomTask = { bytes: copy, maxPixels, started: port2 };
    try {
      return (await this.pool.run(task, {
        transferList: [copy.buffer, port2],
        signal: abort.signal,
      })) as DicomReading;
    } catch (error) {
      // An aborted read's thread has been ended with it; the next read gets a fresh one.
      if (abort.signal.reason === 'time limit') {
        throw new UnsupportedMediaType(dicomTooSlowMessage, error);
      }
      if (abort.signal.reason === 'not started') {
        throw new Error(
          `No DICOM worker thread started a read within ${String(startLimitMs)} ms.`,
          {
            cause: error,
          },
        );
      }
      if ((error as { code?: unknown }).code === 'ERR_WORKER_OUT_OF_MEMORY') {
        throw new UnsupportedMediaType(dicomTooComplexMessage, error);
      }
      throw error;
    } finally {
      clearTimeout(timer);
      started.close();
    }
  }

  async close(): Promise<void> {
    await this.pool.close();
  }
}

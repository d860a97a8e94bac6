// A worker thread of the DICOM reader (dicom-reader.ts): it parses and renders one file at a time,
// so that a file that takes seconds holds this thread, not the API's event loop.
import type { MessagePort } from 'node:worker_threads';
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { renderDicom, type RenderedDicom } from './dicom';
import { PayloadTooLarge, UnsupportedMediaType } from './upload-errors';

export interface DicomTask {
  /** The file's bytes, a copy the worker may keep. */
  bytes: Uint8Array;
  maxPixels: number;
  /** Told when the read starts, so that its time limit leaves out the thread's own start. */
  started: MessagePort;
}

/** What the file is: its rendering, or the refusal the member sees. Errors cannot cross a thread
 *  with their class, so a refusal crosses as its status and detail. */
export type DicomReading =
  { rendered: RenderedDicom } | { refused: { status: 413 | 415; detail: string } };

export default async function readDicom(task: DicomTask): Promise<unknown> {
  task.started.postMessage('started');
  task.started.close();
  try {
    const bytes = Buffer.from(task.bytes.buffer, task.bytes.byteOffset, task.bytes.byteLength);
    const rendered = await renderDicom(bytes, { maxPixels: task.maxPixels });
    const reading: DicomReading = { rendered };
    // The pixels move to the API's thread rather than being copied there (up to 120 MB).
    return move({ [transferableSymbol]: rendered.pixels.buffer, [valueSymbol]: reading });
  } catch (error) {
    if (error instanceof PayloadTooLarge || error instanceof UnsupportedMediaType) {
      return { refused: { status: error.status, detail: error.detail } } satisfies DicomReading;
    }
    throw error;
  }
}

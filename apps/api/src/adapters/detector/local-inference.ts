import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { Piscina } from 'piscina';
import { stderrLogger, type ErrorLogger } from '#api/logger';
import type { Inference, InferenceOutput } from './inference';
import type { ModelSpec } from './model-spec';

/** ONNX Runtime in a pool of worker threads, one per core by default (DENTAL_AI_THREADS). */
export class LocalInference implements Inference {
  private readonly pool: Piscina;

  constructor(threads: number, log: ErrorLogger = stderrLogger) {
    this.pool = new Piscina({
      filename: new URL('./inference-worker.mjs', import.meta.url).href,
      // Threads start with the first detection, so an app that never detects pays nothing.
      minThreads: 0,
      maxThreads: threads,
      idleTimeout: 60_000,
    });
    // Piscina reports a worker that fails with no task to fail, and a close that times out, as
    // 'error' events of the pool; unheard, either would end the process
    // (docs/decisions/stream-error-paths.md). The pool replaces the worker by itself.
    this.pool.on('error', (error: unknown) => {
      log.error({ err: error }, 'a Dental AI worker thread failed outside a detection');
    });
  }

  /** The input's memory moves to the worker rather than being copied (2 MB for a 416-pixel
   *  input, about a millisecond here), so `input` is empty afterwards. */
  async run(model: ModelSpec, input: Float32Array<ArrayBuffer>): Promise<InferenceOutput> {
    return (await this.pool.run(
      {
        modelPath: model.path,
        inputName: model.inputName,
        input,
        dims: [1, 3, model.size, model.size],
      },
      { transferList: [input.buffer] },
    )) as InferenceOutput;
  }

  /** The worker threads read the model files when they start, so the files must still be there. */
  async ping(models: readonly ModelSpec[]): Promise<void> {
    await Promise.all(models.map((model) => access(model.path, constants.R_OK)));
  }

  async close(): Promise<void> {
    await this.pool.close();
  }
}

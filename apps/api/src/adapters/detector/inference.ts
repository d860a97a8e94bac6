import type { ModelSpec } from './model-spec';

/** A model's raw output tensor. */
export interface InferenceOutput {
  data: Float32Array;
  dims: number[];
}

/** Runs a model on one letterboxed input `[1, 3, size, size]`: in this process's worker threads,
 *  or on an inference server. */
export interface Inference {
  /** May take `input` over (a worker thread does): the caller does not read it afterwards. */
  run(model: ModelSpec, input: Float32Array<ArrayBuffer>): Promise<InferenceOutput>;
  /** Throws when these models could not be run now: a file gone, a server down (readiness). */
  ping(models: readonly ModelSpec[]): Promise<void>;
  close(): Promise<void>;
}

import type { EventEmitter } from 'node:events';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalInference } from './local-inference';
import { loadModelSpec } from './model-spec';

const logged: string[] = [];
const inference = new LocalInference(1, {
  error: (_details, message) => {
    logged.push(message);
  },
});
afterAll(() => inference.close());

describe('LocalInference', () => {
  it('runs the model in a worker thread, moving the input there instead of copying it', async () => {
    const model = await loadModelSpec({
      path: path.resolve(import.meta.dirname, '../../../../../models/dental-xray-416.onnx'),
    });
    const input = new Float32Array(3 * model.size * model.size).fill(0.45);
    const output = await inference.run(model, input);
    // 4 box coordinates and a score per class, for each of the model's candidate boxes.
    expect(output.dims.slice(0, 2)).toEqual([1, 4 + model.classNames.length]);
    expect(output.data.length).toBe(output.dims.reduce((product, dim) => product * dim, 1));
    expect(input.byteLength).toBe(0);
  });

  it('logs a worker thread failing outside a detection instead of ending the process', () => {
    // Piscina's own event for such a failure, raised on the pool as Piscina raises it: the pool
    // is a third-party emitter, reached here without a seam of our own.
    const { pool } = inference as unknown as { pool: EventEmitter };
    expect(pool.listenerCount('error')).toBeGreaterThan(0);
    pool.emit('error', new Error('worker exited while idle'));
    expect(logged).toEqual(['a Dental AI worker thread failed outside a detection']);
  });
});

import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalInference } from './local-inference';
import { loadModelSpec } from './model-spec';

const inference = new LocalInference(1);
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
});

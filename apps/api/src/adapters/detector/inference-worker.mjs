// One inference worker thread (piscina): onnxruntime-node's session.run is synchronous native
// code, so it runs here to keep the API's event loop free. Sessions are created once per model
// file and reused for every later task.
import { InferenceSession, Tensor } from 'onnxruntime-node';

/** @type {Map<string, Promise<InferenceSession>>} */
const sessions = new Map();

/**
 * @param {{ modelPath: string, inputName: string, input: Float32Array, dims: number[] }} task
 * @returns {Promise<{ data: Float32Array, dims: number[] }>}
 */
export default async function run({ modelPath, inputName, input, dims }) {
  let session = sessions.get(modelPath);
  if (session === undefined) {
    // One thread per session: the pool has one worker per core.
    session = InferenceSession.create(modelPath, { intraOpNumThreads: 1, interOpNumThreads: 1 });
    sessions.set(modelPath, session);
  }
  const loaded = await session;
  const outputs = await loaded.run({ [inputName]: new Tensor('float32', input, dims) });
  const output = outputs[loaded.outputNames[0]];
  if (output === undefined || output.type !== 'float32') {
    throw new Error(`${modelPath} must have a float32 output.`);
  }
  return { data: /** @type {Float32Array} */ (output.data), dims: [...output.dims] };
}

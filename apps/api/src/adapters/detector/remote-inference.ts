import { z } from 'zod';
import { DetectionFailed } from './detector';
import type { Inference, InferenceOutput } from './inference';
import type { ModelSpec } from './model-spec';

/** The parts of an Open Inference Protocol v2 response this client reads. */
const inferResponse = z.object({
  outputs: z
    .array(
      z.object({
        name: z.string(),
        shape: z.array(z.number().int().nonnegative()),
        datatype: z.string(),
        data: z.array(z.number()),
      }),
    )
    .min(1),
});

/** A model server is given this long to answer before the detection fails. */
const requestTimeoutMs = 30_000;

/**
 * Inference on a server speaking the Open Inference Protocol v2 over HTTP (KServe, NVIDIA Triton):
 * `POST {endpoint}/v2/models/{model name}/infer` with the letterboxed image as an FP32 tensor.
 * The server runs the same model file under the same name (docs/decisions/dental-ai-model-loading.md).
 */
export class RemoteInference implements Inference {
  constructor(private readonly endpoint: string) {}

  /** The Open Inference Protocol's server readiness (`GET /v2/health/ready`), when any model is
   *  served from there. */
  async ping(models: readonly ModelSpec[]): Promise<void> {
    if (models.length === 0) return;
    const response = await fetch(`${this.endpoint}/v2/health/ready`, {
      signal: AbortSignal.timeout(requestTimeoutMs),
    });
    await response.body?.cancel();
    if (!response.ok) {
      throw new Error(
        `The inference server answered ${String(response.status)} to a health check.`,
      );
    }
  }

  async run(model: ModelSpec, input: Float32Array): Promise<InferenceOutput> {
    const url = `${this.endpoint}/v2/models/${encodeURIComponent(model.name)}/infer`;
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          inputs: [
            {
              name: model.inputName,
              shape: [1, 3, model.size, model.size],
              datatype: 'FP32',
              data: Array.from(input),
            },
          ],
        }),
        signal: AbortSignal.timeout(requestTimeoutMs),
      });
    } catch (error) {
      throw new DetectionFailed(`The inference server ${this.endpoint} did not answer.`, {
        cause: error,
      });
    }
    if (!response.ok) {
      throw new DetectionFailed(
        `The inference server answered ${String(response.status)} for model ${model.name}: ${(await response.text()).slice(0, 500)}`,
      );
    }
    const parsed = inferResponse.safeParse(await response.json().catch(() => undefined));
    const output = parsed.data?.outputs[0];
    if (output?.datatype !== 'FP32') {
      throw new DetectionFailed(
        `The inference server's answer for model ${model.name} has no FP32 output.`,
      );
    }
    return { data: Float32Array.from(output.data), dims: output.shape };
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

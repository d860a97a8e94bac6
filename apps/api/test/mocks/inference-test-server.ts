import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { json } from 'node:stream/consumers';
import { InferenceSession, Tensor } from 'onnxruntime-node';

export interface InferenceTestServer {
  /** Give this as DENTAL_AI_ENDPOINT. */
  endpoint: string;
  /** Names of the models asked for, in order. */
  requests: string[];
  close(): Promise<void>;
}

interface InferRequest {
  inputs?: { name?: string; shape?: number[]; datatype?: string; data?: number[] }[];
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'Content-Type': 'application/json' });
  response.end(JSON.stringify(body));
}

/**
 * A local HTTP server speaking the REST side of the Open Inference Protocol v2, as KServe and
 * NVIDIA Triton do: `GET /v2/health/ready` and `POST /v2/models/{name}/infer` with JSON tensors.
 * It really runs `{modelDir}/{name}.onnx` with ONNX Runtime, so a test of the remote path checks
 * real outputs. Listens on an ephemeral port of 127.0.0.1.
 */
export async function startInferenceTestServer(modelDir: string): Promise<InferenceTestServer> {
  const sessions = new Map<string, Promise<InferenceSession>>();
  const requests: string[] = [];
  const server = createServer((request, response) => {
    void (async () => {
      if (request.method === 'GET' && request.url === '/v2/health/ready') {
        sendJson(response, 200, {});
        return;
      }
      const infer = /^\/v2\/models\/([\w.-]+)\/infer$/.exec(request.url ?? '');
      if (request.method !== 'POST' || infer === null) {
        sendJson(response, 404, { error: 'not found' });
        return;
      }
      const name = infer[1] ?? '';
      requests.push(name);
      const body = (await json(request)) as InferRequest;
      const input = body.inputs?.[0];
      if (input?.datatype !== 'FP32' || input.name === undefined) {
        sendJson(response, 400, { error: 'one FP32 input expected' });
        return;
      }
      let session = sessions.get(name);
      if (session === undefined) {
        session = InferenceSession.create(path.join(modelDir, `${name}.onnx`));
        sessions.set(name, session);
      }
      let loaded: InferenceSession;
      try {
        loaded = await session;
      } catch {
        sessions.delete(name);
        sendJson(response, 404, { error: `Request for unknown model: '${name}' is not found` });
        return;
      }
      const outputs = await loaded.run({
        [input.name]: new Tensor('float32', Float32Array.from(input.data ?? []), input.shape),
      });
      sendJson(response, 200, {
        model_name: name,
        model_version: '1',
        outputs: loaded.outputNames.map((outputName) => {
          const tensor = outputs[outputName];
          return {
            name: outputName,
            shape: tensor?.dims,
            datatype: 'FP32',
            data: Array.from(tensor?.data as Float32Array),
          };
        }),
      });
    })().catch((error: unknown) => {
      sendJson(response, 500, { error: String(error) });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${String(port)}`,
    requests,
    close: () =>
      new Promise((resolve, reject) => {
        server.close((error) => {
          if (error) reject(error);
          else resolve();
        });
      }),
  };
}

import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StripeTestServer {
  host: string;
  port: number;
  /** Each Checkout Session created, as the form fields the SDK sent. */
  sessions: { id: string; fields: Record<string, string>; idempotencyKey: string | undefined }[];
  close(): Promise<void>;
}

/** A local HTTP server speaking the part of Stripe's API the app uses: POST /v1/checkout/sessions. */
export async function startStripeTestServer(): Promise<StripeTestServer> {
  const sessions: StripeTestServer['sessions'] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      response.setHeader('content-type', 'application/json');
      if (request.method !== 'POST' || request.url !== '/v1/checkout/sessions') {
        response.statusCode = 404;
        response.end(
          JSON.stringify({ error: { type: 'invalid_request_error', message: 'Unknown route' } }),
        );
        return;
      }
      if (request.headers.authorization !== 'Bearer sk_test_membership') {
        response.statusCode = 401;
        response.end(
          JSON.stringify({ error: { type: 'invalid_request_error', message: 'Invalid API Key' } }),
        );
        return;
      }
      const fields = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString()));
      const id = `cs_test_${randomBytes(12).toString('hex')}`;
      const key = request.headers['idempotency-key'];
      sessions.push({ id, fields, idempotencyKey: typeof key === 'string' ? key : undefined });
      response.end(
        JSON.stringify({
          id,
          object: 'checkout.session',
          mode: fields.mode,
          client_reference_id: fields.client_reference_id ?? null,
          payment_status: 'unpaid',
          status: 'open',
          success_url: fields.success_url,
          cancel_url: fields.cancel_url,
          url: `https://checkout.stripe.test/c/pay/${id}`,
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    host: '127.0.0.1',
    port,
    sessions,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => {
          if (error) reject(error);
          else resolve();
        });
      }),
  };
}

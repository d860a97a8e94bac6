import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The card of a session's charge, as Stripe's `payment_method_details.card` gives it. */
export interface TestCard {
  brand: string;
  last4: string;
}

export interface StripeTestSession {
  id: string;
  /** The form fields the SDK sent. */
  fields: Record<string, string>;
  idempotencyKey: string | undefined;
  /** The PaymentIntent a completed session names; its latest charge was paid with `card`. */
  paymentIntentId: string;
  card: TestCard;
}

export interface StripeTestServer {
  host: string;
  port: number;
  /** Each Checkout Session created. */
  sessions: StripeTestSession[];
  /** Paths of the GET requests received, query included. */
  reads: string[];
  close(): Promise<void>;
}

/** Every session's charge is paid with this card unless a test sets another. */
export const defaultTestCard: TestCard = { brand: 'visa', last4: '4242' };

const error = (message: string) =>
  JSON.stringify({ error: { type: 'invalid_request_error', message } });

/** A PaymentIntent with its latest charge, expanded only when the request asks, as Stripe does. */
function paymentIntent(session: StripeTestSession, expanded: boolean) {
  const chargeId = `ch_${session.paymentIntentId.slice('pi_'.length)}`;
  return {
    id: session.paymentIntentId,
    object: 'payment_intent',
    status: 'succeeded',
    latest_charge: expanded
      ? {
          id: chargeId,
          object: 'charge',
          paid: true,
          payment_method_details: {
            type: 'card',
            card: { brand: session.card.brand, last4: session.card.last4, exp_year: 2030 },
          },
        }
      : chargeId,
  };
}

/**
 * A local HTTP server speaking the part of Stripe's API the app uses: POST /v1/checkout/sessions
 * and GET /v1/payment_intents/{id} (with `expand[]=latest_charge`).
 */
export async function startStripeTestServer(): Promise<StripeTestServer> {
  const sessions: StripeTestServer['sessions'] = [];
  const reads: string[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      response.setHeader('content-type', 'application/json');
      if (request.headers.authorization !== 'Bearer sk_test_membership') {
        response.statusCode = 401;
        response.end(error('Invalid API Key'));
        return;
      }
      const url = new URL(request.url ?? '/', 'http://stripe.test');
      const intentId = /^\/v1\/payment_intents\/([^/]+)$/.exec(url.pathname)?.[1];
      if (request.method === 'GET' && intentId !== undefined) {
        reads.push(`${url.pathname}${url.search}`);
        const session = sessions.find((s) => s.paymentIntentId === intentId);
        if (session === undefined) {
          response.statusCode = 404;
          response.end(error(`No such payment_intent: '${intentId}'`));
          return;
        }
        // The SDK writes `expand[0]=…`; `expand[]=…` means the same to Stripe.
        const expanded = [...url.searchParams].some(
          ([name, value]) => /^expand\[\d*\]$/.test(name) && value === 'latest_charge',
        );
        response.end(JSON.stringify(paymentIntent(session, expanded)));
        return;
      }
      if (request.method !== 'POST' || url.pathname !== '/v1/checkout/sessions') {
        response.statusCode = 404;
        response.end(error('Unknown route'));
        return;
      }
      const fields = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString()));
      const id = `cs_test_${randomBytes(12).toString('hex')}`;
      const key = request.headers['idempotency-key'];
      sessions.push({
        id,
        fields,
        idempotencyKey: typeof key === 'string' ? key : undefined,
        paymentIntentId: `pi_${randomBytes(12).toString('hex')}`,
        card: defaultTestCard,
      });
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
    reads,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => {
          if (error) reject(error);
          else resolve();
        });
      }),
  };
}

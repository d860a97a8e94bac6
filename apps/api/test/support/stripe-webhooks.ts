import { Stripe } from 'stripe';
import { membershipPaths } from '@dental/contracts';
import type { StripeTestServer } from '../mocks/stripe-test-server';
import type { TestApp } from '../build-test-app';

/** The app's settings for Stripe on the local server; its key is the one the server accepts. */
export function stripeTestEnv(server: StripeTestServer, webhookSecret: string) {
  return {
    STRIPE_SECRET_KEY: 'sk_test_membership',
    STRIPE_WEBHOOK_SECRET: webhookSecret,
    STRIPE_API_HOST: server.host,
    STRIPE_API_PORT: String(server.port),
    STRIPE_API_PROTOCOL: 'http',
  };
}

/** What an event says about its checkout session beyond what the app created. */
export interface SessionOverrides {
  id?: string;
  amount_total?: number;
  currency?: string;
  payment_intent?: string;
}

/**
 * Webhook deliveries as Stripe sends them, about the checkout sessions the app created on the
 * local Stripe server (plans and shop orders use the one webhook). `app` and `server` are
 * getters because test files start them in beforeAll.
 */
export function stripeWebhooks(
  app: () => TestApp,
  server: () => StripeTestServer,
  webhookSecret: string,
) {
  const stripe = new Stripe('sk_test_webhooks');
  let eventCount = 0;

  /** An event about the session the app created for the payment; `session` overrides what the
   *  event says about that session. */
  function sessionEvent(
    type: string,
    paymentId: string,
    paymentStatus = 'paid',
    id?: string,
    session: SessionOverrides = {},
  ) {
    eventCount += 1;
    const created = server().sessions.find((s) => s.fields.client_reference_id === paymentId);
    return JSON.stringify({
      id: id ?? `evt_test_${String(eventCount)}_${String(Date.now())}`,
      object: 'event',
      type,
      created: Math.floor(Date.now() / 1000),
      data: {
        object: {
          id: created?.id ?? `cs_test_${paymentId}`,
          object: 'checkout.session',
          client_reference_id: paymentId,
          payment_status: paymentStatus,
          amount_total: Number(created?.fields['line_items[0][price_data][unit_amount]']),
          currency: created?.fields['line_items[0][price_data][currency]'],
          payment_intent: created?.paymentIntentId ?? null,
          metadata: { purpose: created?.fields['metadata[purpose]'] },
          ...session,
        },
      },
    });
  }

  const deliver = (payload: string, signature?: string) =>
    app().request('POST', membershipPaths.webhook, {
      headers: {
        'content-type': 'application/json',
        ...(signature === undefined ? {} : { 'stripe-signature': signature }),
      },
      body: payload,
    });

  const signed = (payload: string, secret = webhookSecret) =>
    deliver(payload, stripe.webhooks.generateTestHeaderString({ payload, secret }));

  return { stripe, sessionEvent, deliver, signed };
}

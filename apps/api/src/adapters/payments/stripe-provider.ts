import type { Stripe } from 'stripe';
import type { StripeSettings } from '#api/config';
import { LoadOnce } from '#api/lib/load-once';
import {
  InvalidSignature,
  paymentCurrency,
  type CheckoutRequest,
  type CheckoutSession,
  type PaymentCard,
  type PaymentEvent,
  type PaymentProvider,
  type PaymentPurpose,
} from './payment-provider';

const purposeOf = (session: Stripe.Checkout.Session): PaymentPurpose =>
  session.metadata?.purpose === 'order' ? 'order' : 'membership';

function sessionOf(session: Stripe.Checkout.Session): NonNullable<PaymentEvent['session']> {
  const intent = session.payment_intent;
  return {
    id: session.id,
    amountCents: session.amount_total,
    currency: session.currency,
    paymentIntentId: typeof intent === 'string' ? intent : (intent?.id ?? null),
  };
}

/** Stripe Checkout in payment mode; the price comes from the plan table or the order each time. */
export class StripePaymentProvider implements PaymentProvider {
  readonly kind = 'stripe';
  private readonly stripe = new LoadOnce(async () => {
    const { Stripe: Client } = await import('stripe');
    const settings = this.settings;
    return new Client(settings.secretKey, {
      maxNetworkRetries: 2,
      telemetry: false,
      ...(settings.host === undefined ? {} : { host: settings.host }),
      ...(settings.port === undefined ? {} : { port: settings.port }),
      ...(settings.protocol === undefined ? {} : { protocol: settings.protocol }),
    });
  });

  constructor(
    private readonly settings: StripeSettings,
    /** Origin of the web app, for the success and cancel URLs. */
    private readonly publicUrl: string,
  ) {}

  async createCheckout(request: CheckoutRequest): Promise<CheckoutSession> {
    const { paymentId, purpose, description, amountCents, customerEmail, expiresAt } = request;
    const back = (outcome: string) => `${this.publicUrl}${request.returnPath}?payment=${outcome}`;
    const session = await (
      await this.stripe.get()
    ).checkout.sessions.create(
      {
        mode: 'payment',
        client_reference_id: paymentId,
        customer_email: customerEmail,
        metadata: { purpose },
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: paymentCurrency,
              unit_amount: amountCents,
              product_data: { name: description },
            },
          },
        ],
        ...(expiresAt === undefined ? {} : { expires_at: Math.floor(expiresAt.getTime() / 1000) }),
        success_url: back('paid'),
        cancel_url: back('cancelled'),
      },
      // A retried create returns the same session instead of a second one.
      { idempotencyKey: `checkout-${paymentId}` },
    );
    if (session.url === null) throw new Error('Stripe answered a Checkout Session without a URL.');
    return { sessionId: session.id, url: session.url };
  }

  /** The card on the session's PaymentIntent's latest charge, as Stripe reports it. */
  async paidWith(event: PaymentEvent | null): Promise<PaymentCard | null> {
    const intentId = event?.session?.paymentIntentId;
    if (intentId === undefined || intentId === null) return null;
    const intent = await (
      await this.stripe.get()
    ).paymentIntents.retrieve(intentId, { expand: ['latest_charge'] });
    const charge = intent.latest_charge;
    const card = typeof charge === 'object' ? charge?.payment_method_details?.card : undefined;
    const last4 = card?.last4 ?? null;
    if (card === undefined || last4 === null) return null;
    // Stripe leaves the brand out for a card network it cannot name.
    return { brand: card.brand ?? 'card', last4 };
  }

  async verifyWebhook(rawBody: Buffer, signature: string): Promise<PaymentEvent> {
    const stripe = await this.stripe.get();
    let event: Stripe.Event;
    try {
      event = stripe.webhooks.constructEvent(rawBody, signature, this.settings.webhookSecret);
    } catch (error) {
      throw new InvalidSignature(error instanceof Error ? error.message : String(error));
    }
    const base = { id: event.id, type: event.type };
    switch (event.type) {
      case 'checkout.session.completed':
      case 'checkout.session.async_payment_succeeded': {
        const session = event.data.object;
        // A delayed payment method completes the session before the money arrives.
        const paid = session.payment_status === 'paid';
        return {
          ...base,
          purpose: purposeOf(session),
          outcome: paid ? 'completed' : 'ignored',
          paymentId: session.client_reference_id,
          session: sessionOf(session),
        };
      }
      case 'checkout.session.expired':
      case 'checkout.session.async_payment_failed':
        return {
          ...base,
          purpose: purposeOf(event.data.object),
          outcome: 'expired',
          paymentId: event.data.object.client_reference_id,
          session: sessionOf(event.data.object),
        };
      default:
        return { ...base, purpose: 'membership', outcome: 'ignored', paymentId: null };
    }
  }
}

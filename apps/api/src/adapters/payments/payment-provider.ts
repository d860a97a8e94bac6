/** What a payment buys: a plan, or an order from the shop. Events are routed by it. */
export type PaymentPurpose = 'membership' | 'order';

export interface CheckoutRequest {
  paymentId: string;
  purpose: PaymentPurpose;
  /** The one line the checkout shows, and its total in US cents. */
  description: string;
  amountCents: number;
  customerEmail: string;
  /** Web app path the provider sends the browser back to, with `?payment=paid|cancelled`. */
  returnPath: string;
  /** The built-in test-mode checkout page for this purpose. */
  testCheckoutPath: string;
  /** When the provider stops accepting payment; its default when absent. */
  expiresAt?: Date;
}

export interface CheckoutSession {
  /** The provider's session id; null for the built-in test mode. */
  sessionId: string | null;
  /** Where GET /api/membership-payment/checkout sends the browser. */
  url: string;
}

/** A verified provider event, reduced to what membership acts on. */
export interface PaymentEvent {
  id: string;
  type: string;
  /** Which service the payment belongs to (the session's metadata; membership before orders
   *  existed). */
  purpose: PaymentPurpose;
  /** completed: paid, apply the plan; expired: the checkout ended unpaid; ignored: anything else. */
  outcome: 'completed' | 'expired' | 'ignored';
  /** Our payment id (the session's client_reference_id), when the event names one. */
  paymentId: string | null;
  /** The checkout session the event is about: checked against the stored payment before the
   *  plan is applied (docs/decisions/payments-on-public-servers.md). */
  session?: {
    id: string;
    amountCents: number | null;
    currency: string | null;
    /** Stripe's PaymentIntent of a paid session, through which the card is read. */
    paymentIntentId?: string | null;
  };
}

/** The card that paid, as the provider reports it, for the receipt. */
export interface PaymentCard {
  /** The provider's word for the network, e.g. 'visa'. */
  brand: string;
  last4: string;
}

/** Every plan is priced in this currency (the checkout sessions we create). */
export const paymentCurrency = 'usd';

/** A webhook whose signature does not verify (forged, altered, or too old). */
export class InvalidSignature extends Error {
  override name = 'InvalidSignature';
}

/** Takes the payment for a plan: Stripe Checkout, or the built-in test-mode page. */
export interface PaymentProvider {
  readonly kind: 'stripe' | 'test';
  createCheckout(request: CheckoutRequest): Promise<CheckoutSession>;
  /** Verifies and reads a webhook delivery; throws InvalidSignature. Absent in test mode. */
  verifyWebhook?(rawBody: Buffer, signature: string): Promise<PaymentEvent>;
  /** The card of a completed payment; null when it was paid by other means. */
  paidWith(event: PaymentEvent | null): Promise<PaymentCard | null>;
}

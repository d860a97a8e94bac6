import type {
  CheckoutRequest,
  CheckoutSession,
  PaymentCard,
  PaymentProvider,
} from './payment-provider';

/** What test mode's receipts name as the card: Stripe's test card number, and a brand that says
 *  no real card paid (docs/decisions/receipts.md). */
export const testModeCard: PaymentCard = { brand: 'test card', last4: '4242' };

/**
 * No payment provider configured: the API serves its own checkout page that charges nothing
 * (docs/decisions/membership-checkout.md). It receives no webhooks.
 */
export class TestModePaymentProvider implements PaymentProvider {
  readonly kind = 'test';

  createCheckout({ paymentId, testCheckoutPath }: CheckoutRequest): Promise<CheckoutSession> {
    const query = new URLSearchParams({ payment_id: paymentId });
    return Promise.resolve({ sessionId: null, url: `${testCheckoutPath}?${query.toString()}` });
  }

  paidWith(): Promise<PaymentCard> {
    return Promise.resolve(testModeCard);
  }
}

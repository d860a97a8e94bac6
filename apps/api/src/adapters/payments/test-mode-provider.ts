import type { CheckoutRequest, CheckoutSession, PaymentProvider } from './payment-provider';

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
}

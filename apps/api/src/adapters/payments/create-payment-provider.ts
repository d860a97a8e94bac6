import type { Config } from '#api/config';
import type { PaymentProvider } from './payment-provider';
import { StripePaymentProvider } from './stripe-provider';
import { TestModePaymentProvider } from './test-mode-provider';

/** Stripe when its keys are configured, otherwise the built-in test-mode checkout. */
export function createPaymentProvider(
  config: Pick<Config, 'stripe' | 'publicUrl'>,
): PaymentProvider {
  return config.stripe === undefined
    ? new TestModePaymentProvider()
    : new StripePaymentProvider(config.stripe, config.publicUrl);
}

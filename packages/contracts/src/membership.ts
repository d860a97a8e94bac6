import { z } from 'zod';
import { planName } from './plans';
import { singleLineText } from './text';

/** Routes of docs/product/membership.md#membership-calls, plus the payment provider's return
 *  paths. */
export const membershipPaths = {
  choosePlan: '/api/membership-payment/choose-plan',
  /** GET: the member's plan and when a paid term ends (docs/decisions/membership-current-plan.md). */
  current: '/api/membership-payment/current',
  /** Reached by full-page navigation: `?payment_id={id}`. */
  checkout: '/api/membership-payment/checkout',
  webhook: '/api/membership-payment/webhook/',
  /** The built-in test-mode checkout (no Stripe configured). */
  testCheckout: '/api/membership-payment/test-checkout',
  testCheckoutPay: '/api/membership-payment/test-checkout/pay',
  testCheckoutCancel: '/api/membership-payment/test-checkout/cancel',
} as const;

export const choosePlanRequest = z.object({
  memberId: z.uuid('memberId must be your account id.'),
  selectedPlan: singleLineText().min(1, 'Choose a plan.').max(32),
});
export type ChoosePlanRequest = z.infer<typeof choosePlanRequest>;

/** The member's plan; `ends_at` is when a paid term ends, null for Silver, which never ends. */
export const currentPlan = z.object({
  plan: planName,
  ends_at: z.iso.datetime({ offset: true }).nullable(),
});
export type CurrentPlan = z.infer<typeof currentPlan>;

export const choosePlanResponse = z.object({ id: z.uuid() });
export type ChoosePlanResponse = z.infer<typeof choosePlanResponse>;

/** The `payment` query of /membership after the checkout sends the browser back. */
export const checkoutOutcomes = ['paid', 'cancelled'] as const;
export const checkoutOutcome = z.enum(checkoutOutcomes);
export type CheckoutOutcome = z.infer<typeof checkoutOutcome>;

export const paymentStatuses = ['pending', 'paid', 'cancelled', 'superseded'] as const;

import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  choosePlanRequest,
  choosePlanResponse,
  currentPlan,
  membershipPaths,
  plans,
} from '@dental/contracts';
import { testCheckoutPage } from '#api/adapters/payments/checkout-page';
import { checkoutRoutes } from '#api/adapters/payments/checkout-routes';
import { formatUsd } from '#api/lib/money';
import { security } from '#api/lib/openapi-security';
import { problems } from '#api/lib/problem-responses';
import type { MembershipService } from './membership.service';

export interface MembershipRoutesOptions {
  membership: MembershipService;
}

const tags = ['membership'];

/** docs/product/membership.md#membership-calls: plan choice, the full-page checkout and the
 *  provider's webhook. */
export const membershipRoutes: FastifyPluginAsyncZod<MembershipRoutesOptions> = async (
  app,
  { membership },
) => {
  app.get(
    membershipPaths.current,
    {
      onRequest: app.authenticate,
      config: { audit: { none: 'the plan and its term, no health data' } },
      schema: {
        tags,
        summary: 'The member’s plan and when a paid term ends',
        security,
        response: { 200: currentPlan, ...problems(401, 404) },
      },
    },
    (request) => membership.current(request.user.id),
  );

  app.post(
    membershipPaths.choosePlan,
    {
      onRequest: app.authenticate,
      config: {
        idempotent: true,
        audit: { none: 'a pending payment; the membership service records the purchase once paid' },
      },
      schema: {
        tags,
        summary: 'Choose a plan above the current level; answers the pending payment’s id',
        security,
        body: choosePlanRequest,
        response: { 200: choosePlanResponse, ...problems(400, 401, 403, 404, 422) },
      },
    },
    (request) => membership.choosePlan(request.user.id, request.body),
  );

  await app.register(checkoutRoutes, {
    tags,
    paths: {
      checkout: membershipPaths.checkout,
      testCheckout: membershipPaths.testCheckout,
      pay: membershipPaths.testCheckoutPay,
      cancel: membershipPaths.testCheckoutCancel,
    },
    returnTo: (_id, outcome) => `/membership?payment=${outcome}`,
    startAgain: {
      advice: 'Please choose your plan again.',
      href: '/membership',
      label: 'Back to Membership',
    },
    checkoutUrl: (id) => membership.checkoutUrl(id),
    testCheckoutPage: async (id) => {
      const payment = await membership.testCheckout(id);
      return testCheckoutPage({
        paymentId: payment.id,
        formToken: payment.formToken,
        lines: [
          ['Plan', plans[payment.plan].name],
          ['Price', `${formatUsd(payment.amountCents)} per year`],
        ],
        payPath: membershipPaths.testCheckoutPay,
        cancelPath: membershipPaths.testCheckoutCancel,
      });
    },
    pay: (id, token) => membership.payTestCheckout(id, token),
    cancel: (id, token) => membership.cancelTestCheckout(id, token),
  });
  await app.register(webhookRoute, { membership });
};

/** Stripe signs the exact bytes it sent: this scope alone keeps JSON bodies raw. */
const webhookRoute: FastifyPluginAsyncZod<MembershipRoutesOptions> = (app, { membership }) => {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'buffer', bodyLimit: 1024 * 1024 },
    (_request, body, done) => {
      done(null, body);
    },
  );
  app.post(
    membershipPaths.webhook,
    {
      schema: {
        tags,
        summary: 'Stripe webhook: verified by signature, processed once per event id',
        headers: z.object({ 'stripe-signature': z.string().max(2000).optional() }),
        response: { 200: z.object({ received: z.literal(true) }), ...problems(400, 404) },
      },
    },
    async (request) => {
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      await membership.handleWebhook(body, request.headers['stripe-signature'] ?? '');
      return { received: true as const };
    },
  );
  return Promise.resolve();
};

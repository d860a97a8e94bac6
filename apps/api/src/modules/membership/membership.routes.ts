import { z } from 'zod';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  choosePlanRequest,
  choosePlanResponse,
  currentPlan,
  membershipPaths,
  type CheckoutOutcome,
} from '@dental/contracts';
import { NotFound } from '#api/domain-errors';
import { security } from '#api/lib/openapi-security';
import { problems } from '#api/lib/problem-responses';
import { checkoutNotFoundPage, testCheckoutPage } from './checkout-page';
import type { MembershipService } from './membership.service';

export interface MembershipRoutesOptions {
  membership: MembershipService;
}

const tags = ['membership'];
const html = z.string().describe('An HTML page');
const redirect = z.null().describe('Redirect (303)');
/** Query and form fields are checked by hand: a browser gets a page, never a JSON problem. */
const paymentQuery = z.object({ payment_id: z.string().max(100).optional() });
const checkoutForm = z.object({
  payment_id: z.string().max(100).optional(),
  token: z.string().max(200).optional(),
});
const paymentId = z.uuid();

/** Runs a browser-facing step; an unknown, old or used checkout answers the HTML 404 page. */
async function browserStep(
  reply: FastifyReply,
  id: string | undefined,
  step: (id: string) => Promise<void>,
) {
  const parsed = paymentId.safeParse(id);
  try {
    if (!parsed.success) throw new NotFound('No such checkout.');
    await step(parsed.data);
  } catch (error) {
    if (!(error instanceof NotFound)) throw error;
    await reply.code(404).type('text/html; charset=utf-8').send(checkoutNotFoundPage());
  }
  return reply;
}

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

  app.get(
    membershipPaths.checkout,
    {
      schema: {
        tags,
        summary: 'Full-page navigation: 303 to the payment provider’s checkout page',
        querystring: paymentQuery,
        response: { 303: redirect, 404: html },
      },
    },
    (request, reply) =>
      browserStep(reply, request.query.payment_id, async (id) => {
        await reply.redirect(await membership.checkoutUrl(id), 303);
      }),
  );

  app.get(
    membershipPaths.testCheckout,
    {
      schema: {
        tags,
        summary: 'The built-in test-mode checkout page (no payment provider configured)',
        querystring: paymentQuery,
        response: { 200: html, 404: html },
      },
    },
    (request, reply) =>
      browserStep(reply, request.query.payment_id, async (id) => {
        const page = testCheckoutPage(await membership.testCheckout(id));
        await reply.type('text/html; charset=utf-8').send(page);
      }),
  );

  await app.register(testCheckoutForms, { membership });
  await app.register(webhookRoute, { membership });
};

/** The test-mode Pay and Cancel forms post urlencoded bodies; the parser exists in this scope only. */
const testCheckoutForms: FastifyPluginAsyncZod<MembershipRoutesOptions> = (app, { membership }) => {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 4096 },
    (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))));
    },
  );
  const formRoute = (
    url: string,
    summary: string,
    step: (id: string, token: string) => Promise<void>,
    outcome: CheckoutOutcome,
  ) => {
    app.post(
      url,
      { schema: { tags, summary, body: checkoutForm, response: { 303: redirect, 404: html } } },
      (request, reply) =>
        browserStep(reply, request.body.payment_id, async (id) => {
          await step(id, request.body.token ?? '');
          await reply.redirect(`/membership?payment=${outcome}`, 303);
        }),
    );
  };
  formRoute(
    membershipPaths.testCheckoutPay,
    'Test mode: pay (no card is charged) and return to /membership',
    (id, token) => membership.payTestCheckout(id, token),
    'paid',
  );
  formRoute(
    membershipPaths.testCheckoutCancel,
    'Test mode: cancel and return to /membership',
    (id, token) => membership.cancelTestCheckout(id, token),
    'cancelled',
  );
  return Promise.resolve();
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

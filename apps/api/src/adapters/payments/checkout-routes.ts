import { z } from 'zod';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { CheckoutOutcome } from '@dental/contracts';
import { NotFound } from '#api/domain-errors';
import { checkoutNotFoundPage, type StartAgain } from './checkout-page';

/** The browser-facing steps of one kind of payment: the redirect to the provider and, in test
 *  mode, the built-in checkout page with its Pay and Cancel forms. */
export interface CheckoutRoutesOptions {
  tags: string[];
  paths: { checkout: string; testCheckout: string; pay: string; cancel: string };
  /** The web app's page the browser returns to after paying or cancelling. */
  returnTo: (paymentId: string, outcome: CheckoutOutcome) => string;
  startAgain: StartAgain;
  /** Each throws NotFound for an unknown, used or expired checkout. */
  checkoutUrl: (paymentId: string) => Promise<string>;
  testCheckoutPage: (paymentId: string) => Promise<string>;
  pay: (paymentId: string, token: string) => Promise<void>;
  cancel: (paymentId: string, token: string) => Promise<void>;
}

const html = z.string().describe('An HTML page');
const redirect = z.null().describe('Redirect (303)');
/** Query and form fields are checked by hand: a browser gets a page, never a JSON problem. */
const paymentQuery = z.object({ payment_id: z.string().max(100).optional() });
const checkoutForm = z.object({
  payment_id: z.string().max(100).optional(),
  token: z.string().max(200).optional(),
});
const paymentId = z.uuid();

/**
 * docs/decisions/membership-checkout.md: the full-page checkout, shared by plans and shop orders.
 * Registered once per kind of payment; the urlencoded parser exists in this scope only.
 */
export const checkoutRoutes: FastifyPluginAsyncZod<CheckoutRoutesOptions> = (app, options) => {
  const { tags, paths } = options;

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
      await reply
        .code(404)
        .type('text/html; charset=utf-8')
        .send(checkoutNotFoundPage(options.startAgain));
    }
    return reply;
  }

  app.get(
    paths.checkout,
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
        await reply.redirect(await options.checkoutUrl(id), 303);
      }),
  );

  app.get(
    paths.testCheckout,
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
        const page = await options.testCheckoutPage(id);
        await reply.type('text/html; charset=utf-8').send(page);
      }),
  );

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
          await reply.redirect(options.returnTo(id, outcome), 303);
        }),
    );
  };
  formRoute(paths.pay, 'Test mode: pay (no card is charged) and return', options.pay, 'paid');
  formRoute(paths.cancel, 'Test mode: cancel and return', options.cancel, 'cancelled');
  return Promise.resolve();
};

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { receiptList, receiptPaths, shopPaths } from '@dental/contracts';
import { startStripeTestServer, type StripeTestServer } from '#api-test/mocks/stripe-test-server';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories } from '#api-test/factories';
import { flosser, orderOf, shopHelpers } from '#api-test/support/shop';
import { stripeTestEnv, stripeWebhooks } from '#api-test/support/stripe-webhooks';
import { orderCheckoutLifetimeMs } from './shop.service';

/** Orders paid through Stripe Checkout (a local server speaking its API) and its webhook. */
const webhookSecret = 'whsec_shop_test_secret';
let t: TestApp;
let server: StripeTestServer;
let factory: ReturnType<typeof factories>;
const shop = shopHelpers(() => t);
const { sessionEvent, signed } = stripeWebhooks(
  () => t,
  () => server,
  webhookSecret,
);

beforeAll(async () => {
  server = await startStripeTestServer();
  t = await buildTestApp({
    env: stripeTestEnv(server, webhookSecret),
  });
  factory = factories(t);
});
afterAll(async () => {
  await t.close();
  await server.close();
});

/** A member who ordered two flossers with 500 points off through Stripe. */
async function ordered() {
  const member = await factory.loggedInMember();
  const id = await shop.placed(member.tokens.access, orderOf(flosser, 500, 2));
  return { member, id };
}

describe('Stripe Checkout for an order', () => {
  it('charges the price less the points, as one line, expiring with the order’s checkout', async () => {
    const { member, id } = await ordered();
    const session = server.sessions.find((s) => s.fields.client_reference_id === id);
    expect(session?.fields).toMatchObject({
      mode: 'payment',
      customer_email: member.email,
      'metadata[purpose]': 'order',
      'line_items[0][quantity]': '1',
      'line_items[0][price_data][currency]': 'usd',
      'line_items[0][price_data][unit_amount]': String(2 * flosser.priceCents - 500),
      'line_items[0][price_data][product_data][name]': 'Cordless water flosser × 2',
      expires_at: String(Math.floor((t.clock.now().getTime() + orderCheckoutLifetimeMs) / 1000)),
      success_url: `http://app.test/orders/${id}?payment=paid`,
      cancel_url: `http://app.test/orders/${id}?payment=cancelled`,
    });
    const [row] = await shop.ordersOf(member.id);
    expect(row).toMatchObject({ provider: 'stripe', providerSessionId: session?.id });
    const res = await t.request('GET', `${shopPaths.checkout}?payment_id=${id}`);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`https://checkout.stripe.test/c/pay/${session?.id ?? ''}`);
  });
});

describe('the webhook for an order', () => {
  it('marks it paid once, keeping the points spent', async () => {
    const { member, id } = await ordered();
    const payload = sessionEvent('checkout.session.completed', id);
    for (let delivery = 0; delivery < 2; delivery += 1) {
      expect((await signed(payload)).statusCode).toBe(200);
    }
    expect(await shop.order(member.tokens.access, id)).toMatchObject({
      status: 'paid',
      paid_at: t.clock.now().toISOString(),
    });
    // A late expiry of the paid session gives nothing back.
    await signed(sessionEvent('checkout.session.expired', id, 'unpaid'));
    const points = await shop.points(member.tokens.access);
    expect(points.points).toBe(0);
    expect(points.ledger.map((entry) => entry.kind)).toEqual(['spent', 'granted']);
  });

  it('records the receipt number and the card of the PaymentIntent’s latest charge', async () => {
    const { member, id } = await ordered();
    const session = server.sessions.find((s) => s.fields.client_reference_id === id);
    if (session === undefined) throw new Error('no session');
    session.card = { brand: 'mastercard', last4: '4444' };
    expect((await signed(sessionEvent('checkout.session.completed', id))).statusCode).toBe(200);
    expect(server.reads.map(decodeURIComponent)).toContain(
      `/v1/payment_intents/${session.paymentIntentId}?expand[0]=latest_charge`,
    );
    const res = await t.request('GET', receiptPaths.list, { token: member.tokens.access });
    const [receipt] = receiptList.parse(res.json()).results;
    expect(receipt).toMatchObject({
      id,
      kind: 'order',
      description: '2 × Cordless water flosser, 500 points used',
      amount_cents: 2 * flosser.priceCents - 500,
      card_brand: 'mastercard',
      card_last4: '4444',
    });
    expect(receipt?.number).toMatch(/^DC-\d{4}-\d{6,}$/);
  });

  it('answers 500 and records nothing when the charge cannot be read; the redelivery applies', async () => {
    const { member, id } = await ordered();
    const payload = sessionEvent('checkout.session.completed', id, 'paid', undefined, {
      payment_intent: 'pi_unknown_to_stripe',
    });
    expect((await signed(payload)).statusCode).toBe(500);
    expect((await shop.order(member.tokens.access, id)).status).toBe('pending');
    expect((await signed(sessionEvent('checkout.session.completed', id))).statusCode).toBe(200);
    const [row] = await shop.ordersOf(member.id);
    expect(row).toMatchObject({ status: 'paid', cardBrand: 'visa', cardLast4: '4242' });
  });

  it.each([
    ['expires', 'checkout.session.expired'],
    ['fails', 'checkout.session.async_payment_failed'],
  ])('gives the points back once when the checkout %s', async (_case, type) => {
    const { member, id } = await ordered();
    const payload = sessionEvent(type, id, 'unpaid');
    expect((await signed(payload)).statusCode).toBe(200);
    expect((await signed(sessionEvent(type, id, 'unpaid'))).statusCode).toBe(200);
    expect((await shop.order(member.tokens.access, id)).status).toBe('cancelled');
    const points = await shop.points(member.tokens.access);
    expect(points.points).toBe(500);
    expect(points.ledger.map(({ kind, points: change }) => [kind, change])).toEqual([
      ['returned', 500],
      ['spent', -500],
      ['granted', 500],
    ]);
  });

  it.each([
    ['another checkout session', { id: 'cs_test_someone_elses_session' }],
    ['a different amount', { amount_total: 1 }],
    ['a different currency', { currency: 'jpy' }],
  ])('ignores a completion for %s', async (_case, session) => {
    const { member, id } = await ordered();
    await signed(sessionEvent('checkout.session.completed', id, 'paid', undefined, session));
    expect((await shop.order(member.tokens.access, id)).status).toBe('pending');
    await signed(sessionEvent('checkout.session.completed', id));
    expect((await shop.order(member.tokens.access, id)).status).toBe('paid');
  });

  it('ignores an expiry for another checkout session', async () => {
    const { member, id } = await ordered();
    await signed(sessionEvent('checkout.session.expired', id, 'unpaid', undefined, { id: 'cs_x' }));
    expect((await shop.order(member.tokens.access, id)).status).toBe('pending');
    expect(await shop.storedPoints(member.id)).toBe(0);
  });
});

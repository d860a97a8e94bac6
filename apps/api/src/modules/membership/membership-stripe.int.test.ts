import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { membershipPaths, plans, receiptList, receiptPaths } from '@dental/contracts';
import { startStripeTestServer, type StripeTestServer } from '#api-test/mocks/stripe-test-server';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories } from '#api-test/factories';
import { membershipHelpers } from '#api-test/support/membership';
import { stripeTestEnv, stripeWebhooks } from '#api-test/support/stripe-webhooks';

/** Stripe Checkout against a local server speaking its API, and signed webhook deliveries. */
const webhookSecret = 'whsec_membership_test_secret';
let t: TestApp;
let server: StripeTestServer;
let factory: ReturnType<typeof factories>;
let helpers: ReturnType<typeof membershipHelpers>;
const logLines: string[] = [];

beforeAll(async () => {
  server = await startStripeTestServer();
  t = await buildTestApp({
    logStream: { write: (line) => logLines.push(line) },
    env: stripeTestEnv(server, webhookSecret),
  });
  factory = factories(t);
  helpers = membershipHelpers(t);
});
afterAll(async () => {
  await t.close();
  await server.close();
});

const { stripe, sessionEvent, deliver, signed } = stripeWebhooks(
  () => t,
  () => server,
  webhookSecret,
);

async function choose(plan: 'Gold' | 'Platinum') {
  const member = await factory.loggedInMember();
  const res = await helpers.choosePlan(member.tokens.access, {
    memberId: member.id,
    selectedPlan: plan,
  });
  expect(res.statusCode).toBe(200);
  return { member, paymentId: res.json<{ id: string }>().id };
}

describe('Stripe Checkout', () => {
  it('creates a payment-mode session priced from the plan table and redirects to it', async () => {
    const { member, paymentId } = await choose('Platinum');
    const session = server.sessions.find((s) => s.fields.client_reference_id === paymentId);
    expect(session?.fields).toMatchObject({
      mode: 'payment',
      customer_email: member.email,
      'metadata[purpose]': 'membership',
      'line_items[0][quantity]': '1',
      'line_items[0][price_data][currency]': 'usd',
      'line_items[0][price_data][unit_amount]': String(plans.Platinum.priceCents),
      success_url: 'http://app.test/membership?payment=paid',
      cancel_url: 'http://app.test/membership?payment=cancelled',
    });
    expect(session?.idempotencyKey).toBe(`checkout-${paymentId}`);
    expect(await helpers.payment(paymentId)).toMatchObject({
      provider: 'stripe',
      providerSessionId: session?.id,
      status: 'pending',
    });
    const res = await t.request('GET', `${membershipPaths.checkout}?payment_id=${paymentId}`);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`https://checkout.stripe.test/c/pay/${session?.id ?? ''}`);
    // The test-mode page does not exist for a Stripe payment.
    const testPage = await t.request(
      'GET',
      `${membershipPaths.testCheckout}?payment_id=${paymentId}`,
    );
    expect(testPage.statusCode).toBe(404);
  });
});

describe('POST /api/membership-payment/webhook/', () => {
  it('applies a correctly signed completion once, however often it is delivered', async () => {
    const { member, paymentId } = await choose('Gold');
    const payload = sessionEvent('checkout.session.completed', paymentId);
    for (let delivery = 0; delivery < 3; delivery += 1) {
      const res = await signed(payload);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ received: true });
    }
    // Another event about the same payment adds nothing either.
    expect((await signed(sessionEvent('checkout.session.completed', paymentId))).statusCode).toBe(
      200,
    );
    expect(await helpers.account(member.tokens.access)).toMatchObject({
      customer_level: 'Gold',
      points: plans.Silver.signUpBonusPoints + plans.Gold.signUpBonusPoints,
    });
    expect(await helpers.payment(paymentId)).toMatchObject({ status: 'paid' });
  });

  it('records the receipt number and the card of the PaymentIntent’s latest charge', async () => {
    const { member, paymentId } = await choose('Platinum');
    const session = server.sessions.find((s) => s.fields.client_reference_id === paymentId);
    if (session === undefined) throw new Error('no session');
    session.card = { brand: 'mastercard', last4: '4444' };
    expect((await signed(sessionEvent('checkout.session.completed', paymentId))).statusCode).toBe(
      200,
    );
    expect(server.reads.map(decodeURIComponent)).toContain(
      `/v1/payment_intents/${session.paymentIntentId}?expand[0]=latest_charge`,
    );
    const res = await t.request('GET', receiptPaths.list, { token: member.tokens.access });
    const [receipt] = receiptList.parse(res.json()).results;
    expect(receipt).toMatchObject({
      id: paymentId,
      description: 'Platinum membership, 1 year',
      amount_cents: plans.Platinum.priceCents,
      currency: 'USD',
      card_brand: 'mastercard',
      card_last4: '4444',
    });
    expect(receipt?.number).toMatch(/^DC-\d{4}-\d{6}$/);
  });

  it('answers 500 and records nothing when the charge cannot be read; the redelivery applies', async () => {
    const { member, paymentId } = await choose('Gold');
    const session = server.sessions.find((s) => s.fields.client_reference_id === paymentId);
    if (session === undefined) throw new Error('no session');
    const payload = sessionEvent('checkout.session.completed', paymentId, 'paid', undefined, {
      payment_intent: 'pi_unknown_to_stripe',
    });
    expect((await signed(payload)).statusCode).toBe(500);
    expect(await helpers.payment(paymentId)).toMatchObject({ status: 'pending' });
    expect((await signed(sessionEvent('checkout.session.completed', paymentId))).statusCode).toBe(
      200,
    );
    expect(await helpers.payment(paymentId)).toMatchObject({
      status: 'paid',
      cardBrand: 'visa',
      cardLast4: '4242',
    });
    expect((await helpers.account(member.tokens.access)).customer_level).toBe('Gold');
  });

  it('refuses forged, unsigned and altered deliveries with 400 and changes nothing', async () => {
    const { member, paymentId } = await choose('Gold');
    const payload = sessionEvent('checkout.session.completed', paymentId);
    expect((await signed(payload, 'whsec_someone_else')).statusCode).toBe(400);
    expect((await deliver(payload)).statusCode).toBe(400);
    const header = stripe.webhooks.generateTestHeaderString({ payload, secret: webhookSecret });
    expect((await deliver(payload.replace('"paid"', '"paid" '), header)).statusCode).toBe(400);
    const old = stripe.webhooks.generateTestHeaderString({
      payload,
      secret: webhookSecret,
      timestamp: Math.floor(Date.now() / 1000) - 3600,
    });
    const res = await deliver(payload, old);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ detail: 'The webhook signature is not valid.' });
    expect((await helpers.account(member.tokens.access)).customer_level).toBe('Silver');
    expect(await helpers.payment(paymentId)).toMatchObject({ status: 'pending' });
    // The forged deliveries did not use up the event id: the real one still counts.
    expect((await signed(payload)).statusCode).toBe(200);
    expect((await helpers.account(member.tokens.access)).customer_level).toBe('Gold');
  });

  it('keeps a paid payment when its expiry arrives late, and honours a payment after an expiry', async () => {
    const first = await choose('Gold');
    await signed(sessionEvent('checkout.session.completed', first.paymentId));
    await signed(sessionEvent('checkout.session.expired', first.paymentId, 'unpaid'));
    expect(await helpers.payment(first.paymentId)).toMatchObject({ status: 'paid' });
    expect((await helpers.account(first.member.tokens.access)).customer_level).toBe('Gold');

    const second = await choose('Platinum');
    await signed(sessionEvent('checkout.session.expired', second.paymentId, 'unpaid'));
    expect(await helpers.payment(second.paymentId)).toMatchObject({ status: 'cancelled' });
    await signed(sessionEvent('checkout.session.completed', second.paymentId));
    expect(await helpers.payment(second.paymentId)).toMatchObject({ status: 'paid' });
    expect((await helpers.account(second.member.tokens.access)).customer_level).toBe('Platinum');
  });

  it('supersedes a payment for a plan at or below the level reached meanwhile', async () => {
    const member = await factory.loggedInMember();
    const chooseFor = async (selectedPlan: string) =>
      (await helpers.choosePlan(member.tokens.access, { memberId: member.id, selectedPlan })).json<{
        id: string;
      }>().id;
    const gold = await chooseFor('Gold');
    const platinum = await chooseFor('Platinum');
    await signed(sessionEvent('checkout.session.completed', platinum));
    await signed(sessionEvent('checkout.session.completed', gold));
    expect(await helpers.payment(gold)).toMatchObject({ status: 'superseded' });
    expect(await helpers.account(member.tokens.access)).toMatchObject({
      customer_level: 'Platinum',
      points: plans.Silver.signUpBonusPoints + plans.Platinum.signUpBonusPoints,
    });
  });

  it.each([
    ['another checkout session', { id: 'cs_test_someone_elses_session' }, 'session'],
    ['a different amount', { amount_total: 1 }, 'amount'],
    ['a different currency', { currency: 'jpy' }, 'currency'],
  ])('ignores and logs a correctly signed completion for %s', async (_case, session, mismatch) => {
    const { member, paymentId } = await choose('Platinum');
    const payload = sessionEvent(
      'checkout.session.completed',
      paymentId,
      'paid',
      undefined,
      session,
    );
    const res = await signed(payload);
    expect(res.statusCode).toBe(200);
    expect((await helpers.account(member.tokens.access)).customer_level).toBe('Silver');
    expect(await helpers.payment(paymentId)).toMatchObject({ status: 'pending' });
    const warning = logLines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((line) => line.paymentId === paymentId);
    expect(warning).toMatchObject({
      level: 40,
      mismatch,
      msg: 'payment event does not match the stored payment; ignored',
    });
    // The real completion still applies the plan.
    expect((await signed(sessionEvent('checkout.session.completed', paymentId))).statusCode).toBe(
      200,
    );
    expect((await helpers.account(member.tokens.access)).customer_level).toBe('Platinum');
  });

  it('ignores an expiry for another checkout session', async () => {
    const { paymentId } = await choose('Gold');
    await signed(
      sessionEvent('checkout.session.expired', paymentId, 'unpaid', undefined, { id: 'cs_other' }),
    );
    expect(await helpers.payment(paymentId)).toMatchObject({ status: 'pending' });
  });

  it('acknowledges events it does not act on, and a completion still awaiting payment', async () => {
    const { member, paymentId } = await choose('Gold');
    expect(
      (await signed(sessionEvent('checkout.session.completed', paymentId, 'unpaid'))).statusCode,
    ).toBe(200);
    const other = JSON.stringify({
      id: 'evt_other_type',
      object: 'event',
      type: 'customer.created',
      data: { object: {} },
    });
    expect((await signed(other)).statusCode).toBe(200);
    expect((await helpers.account(member.tokens.access)).customer_level).toBe('Silver');
    expect(await helpers.payment(paymentId)).toMatchObject({ status: 'pending' });
  });
});

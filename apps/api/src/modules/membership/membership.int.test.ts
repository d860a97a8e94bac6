import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endOfYear, membershipPaths, plans } from '@dental/contracts';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories } from '#api-test/factories';
import { startSmtpInbox, type SmtpInbox } from '#api-test/smtp-inbox';
import { membershipHelpers } from '#api-test/support/membership';
import { testCheckout } from '#api-test/support/test-checkout';
import { checkoutLifetimeMs, oneYearAfter } from './membership.service';

/** Plan choice and the built-in test-mode checkout (no Stripe configured). */
let t: TestApp;
let smtp: SmtpInbox;
let factory: ReturnType<typeof factories>;
let helpers: ReturnType<typeof membershipHelpers>;

beforeAll(async () => {
  smtp = await startSmtpInbox();
  t = await buildTestApp({ env: { SMTP_URL: smtp.url } });
  factory = factories(t);
  helpers = membershipHelpers(t);
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

type Member = Awaited<ReturnType<typeof factory.loggedInMember>>;

async function choose(member: Member, selectedPlan: string): Promise<string> {
  const res = await helpers.choosePlan(member.tokens.access, { memberId: member.id, selectedPlan });
  expect(res.statusCode).toBe(200);
  return res.json<{ id: string }>().id;
}

const {
  checkout,
  postForm,
  pay,
  cancel,
  open: openTestCheckout,
} = testCheckout(() => t, membershipPaths);

async function buy(member: Member, plan: string) {
  const id = await choose(member, plan);
  const { token } = await openTestCheckout(id);
  expect((await pay(id, token)).statusCode).toBe(303);
  return id;
}

describe('POST /api/membership-payment/choose-plan', () => {
  it('creates a pending payment at the plan table’s price', async () => {
    const member = await factory.loggedInMember();
    const id = await choose(member, 'Gold');
    expect(await helpers.payment(id)).toMatchObject({
      userId: member.id,
      plan: 'Gold',
      amountCents: plans.Gold.priceCents,
      status: 'pending',
      provider: 'test',
      providerSessionId: null,
      createdAt: t.clock.now(),
    });
  });

  it('answers 403 for another member’s id and creates nothing', async () => {
    const ann = await factory.loggedInMember();
    const bob = await factory.loggedInMember();
    const res = await helpers.choosePlan(ann.tokens.access, {
      memberId: bob.id,
      selectedPlan: 'Gold',
    });
    expect(res.statusCode).toBe(403);
    expect(await helpers.paymentsOf(bob.id)).toEqual([]);
    expect(await helpers.paymentsOf(ann.id)).toEqual([]);
  });

  it.each([
    ['Silver', 'Silver is the free plan; there is nothing to buy.'],
    ['Diamond', '"Diamond" is not a membership plan.'],
    ['gold', '"gold" is not a membership plan.'],
  ])('refuses %s with a 422 and a detail', async (selectedPlan, detail) => {
    const member = await factory.loggedInMember();
    const res = await helpers.choosePlan(member.tokens.access, {
      memberId: member.id,
      selectedPlan,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ status: 422, detail });
    expect(await helpers.paymentsOf(member.id)).toEqual([]);
  });

  it('refuses a plan at or below the current level', async () => {
    const member = await factory.loggedInMember();
    await buy(member, 'Gold');
    for (const selectedPlan of ['Gold', 'Silver']) {
      const res = await helpers.choosePlan(member.tokens.access, {
        memberId: member.id,
        selectedPlan,
      });
      expect(res.statusCode).toBe(422);
    }
    const gold = await helpers.choosePlan(member.tokens.access, {
      memberId: member.id,
      selectedPlan: 'Gold',
    });
    expect(gold.json()).toMatchObject({
      detail: 'You are already a Gold member. Choose a plan above Gold.',
    });
    expect(await choose(member, 'Platinum')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers 400 with field errors for bad input and 401 without a login', async () => {
    const member = await factory.loggedInMember();
    for (const body of [{}, { memberId: 'me', selectedPlan: 'Gold' }, { memberId: member.id }]) {
      const res = await helpers.choosePlan(member.tokens.access, body);
      expect(res.statusCode).toBe(400);
      expect(res.json<{ errors: object }>().errors).toBeDefined();
    }
    const anonymous = await t.request('POST', membershipPaths.choosePlan, {
      body: { memberId: member.id, selectedPlan: 'Gold' },
    });
    expect(anonymous.statusCode).toBe(401);
    expect(await helpers.paymentsOf(member.id)).toEqual([]);
  });
});

describe('GET /api/membership-payment/current', () => {
  it('answers Silver without an end, then the paid plan with the end of its year', async () => {
    const member = await factory.loggedInMember();
    const token = member.tokens.access;
    const silver = await t.request('GET', membershipPaths.current, { token });
    expect(silver.statusCode).toBe(200);
    expect(silver.json()).toEqual({ plan: 'Silver', ends_at: null });

    await buy(member, 'Gold');
    const gold = await t.request('GET', membershipPaths.current, { token });
    expect(gold.json()).toEqual({
      plan: 'Gold',
      ends_at: oneYearAfter(t.clock.now()).toISOString(),
    });
  });

  it('refuses a request without a token', async () => {
    expect((await t.request('GET', membershipPaths.current)).statusCode).toBe(401);
  });
});

describe('GET /api/membership-payment/checkout', () => {
  it('answers 303 to the test-mode checkout without a bearer token', async () => {
    const member = await factory.loggedInMember();
    const id = await choose(member, 'Platinum');
    const res = await checkout(id);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`${membershipPaths.testCheckout}?payment_id=${id}`);
  });

  it('answers the HTML 404 page for an unknown, malformed or missing id', async () => {
    for (const url of [
      `${membershipPaths.checkout}?payment_id=00000000-0000-4000-8000-000000000000`,
      `${membershipPaths.checkout}?payment_id=not-a-uuid`,
      membershipPaths.checkout,
      `${membershipPaths.testCheckout}?payment_id=00000000-0000-4000-8000-000000000000`,
    ]) {
      const res = await t.request('GET', url);
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.body).toContain('Checkout not found');
    }
  });

  it('works for 30 minutes after the plan was chosen, then answers 404', async () => {
    const member = await factory.loggedInMember();
    const id = await choose(member, 'Gold');
    t.clock.advance(checkoutLifetimeMs);
    expect((await checkout(id)).statusCode).toBe(303);
    t.clock.advance(1);
    expect((await checkout(id)).statusCode).toBe(404);
    expect(
      (await t.request('GET', `${membershipPaths.testCheckout}?payment_id=${id}`)).statusCode,
    ).toBe(404);
  });
});

describe('the test-mode checkout', () => {
  it('shows the plan and price, marked as test mode, with forms and no script', async () => {
    const member = await factory.loggedInMember();
    const { page } = await openTestCheckout(await choose(member, 'Gold'));
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('Test mode — no card is charged');
    expect(page.body).toContain('<dd>Gold</dd>');
    expect(page.body).toContain('$29.99 per year');
    expect(page.body).toContain(`action="${membershipPaths.testCheckoutPay}"`);
    expect(page.body).toContain(`action="${membershipPaths.testCheckoutCancel}"`);
    expect(page.body).not.toContain('<script');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    // The product's header, colours and favicon, so the member knows where they are.
    expect(page.body).toContain('<link rel="icon" type="image/svg+xml" href="/favicon.svg">');
    expect(page.body).toContain('<a class="brand" href="/">');
    expect(page.body).toContain('Dental <span>Companion</span>');
    expect(page.body).toContain('.pay{background:#0f6f69;color:#fff}');
  });

  it('Pay applies the plan, its bonus points and a receipt, then returns to /membership', async () => {
    const member = await factory.loggedInMember();
    const id = await choose(member, 'Gold');
    const { token } = await openTestCheckout(id);
    const res = await pay(id, token);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/membership?payment=paid');

    const after = await helpers.account(member.tokens.access);
    expect(after).toMatchObject({
      customer_level: 'Gold',
      points: plans.Silver.signUpBonusPoints + plans.Gold.signUpBonusPoints,
      points_expired_at: endOfYear(t.clock.now()).toISOString(),
    });
    expect(await helpers.payment(id)).toMatchObject({ status: 'paid', completedAt: t.clock.now() });
    const receipt = await smtp.waitForMessageTo(member.email);
    expect(receipt.subject).toBe('Your Gold membership receipt');
    expect(receipt.text).toContain('Amount paid: $29.99 (USD)');
    expect(receipt.text).toContain('no cancellations or refunds');

    // A second Pay (a double submit, a back button) finds nothing to pay.
    expect((await pay(id, token)).statusCode).toBe(404);
    expect((await helpers.account(member.tokens.access)).points).toBe(after.points);
  });

  it('refuses a wrong, missing or another payment’s token and changes nothing', async () => {
    const member = await factory.loggedInMember();
    const id = await choose(member, 'Gold');
    const other = await openTestCheckout(await choose(member, 'Platinum'));
    await openTestCheckout(id);
    for (const token of ['', 'forged', other.token]) {
      expect((await pay(id, token)).statusCode).toBe(404);
      expect((await cancel(id, token)).statusCode).toBe(404);
    }
    expect((await postForm(membershipPaths.testCheckoutPay, { payment_id: id })).statusCode).toBe(
      404,
    );
    expect(await helpers.payment(id)).toMatchObject({ status: 'pending' });
    expect((await helpers.account(member.tokens.access)).customer_level).toBe('Silver');
  });

  it('Cancel marks the payment cancelled and returns to /membership; it cannot be paid after', async () => {
    const member = await factory.loggedInMember();
    const id = await choose(member, 'Platinum');
    const { token } = await openTestCheckout(id);
    const res = await cancel(id, token);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/membership?payment=cancelled');
    expect(await helpers.payment(id)).toMatchObject({ status: 'cancelled' });
    expect((await pay(id, token)).statusCode).toBe(404);
    expect((await checkout(id)).statusCode).toBe(404);
    expect((await helpers.account(member.tokens.access)).customer_level).toBe('Silver');
  });

  it('cannot be paid after 30 minutes', async () => {
    const member = await factory.loggedInMember();
    const id = await choose(member, 'Gold');
    const { token } = await openTestCheckout(id);
    t.clock.advance(checkoutLifetimeMs + 1);
    expect((await pay(id, token)).statusCode).toBe(404);
    expect(await helpers.payment(id)).toMatchObject({ status: 'pending' });
  });

  it('marks a payment superseded when a higher plan was paid meanwhile: no downgrade, no points', async () => {
    const member = await factory.loggedInMember();
    const gold = await choose(member, 'Gold');
    const goldForm = await openTestCheckout(gold);
    await buy(member, 'Platinum');
    expect((await pay(gold, goldForm.token)).statusCode).toBe(303);
    expect(await helpers.payment(gold)).toMatchObject({ status: 'superseded' });
    expect(await helpers.account(member.tokens.access)).toMatchObject({
      customer_level: 'Platinum',
      points: plans.Silver.signUpBonusPoints + plans.Platinum.signUpBonusPoints,
    });
  });

  it('checks the token of a JSON post just the same', async () => {
    const member = await factory.loggedInMember();
    const id = await choose(member, 'Gold');
    const res = await t.request('POST', membershipPaths.testCheckoutPay, {
      body: { payment_id: id, token: 'x' },
    });
    expect(res.statusCode).toBe(404);
    expect(await helpers.payment(id)).toMatchObject({ status: 'pending' });
  });
});

describe('POST /api/membership-payment/webhook/ in test mode', () => {
  it('answers 404: there is no provider to call it', async () => {
    const res = await t.request('POST', membershipPaths.webhook, { body: { id: 'evt_1' } });
    expect(res.statusCode).toBe(404);
  });
});

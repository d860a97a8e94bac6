import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  oralSupplierItemPath,
  orderPath,
  problemContentType,
  shopPaths,
  supplier,
} from '@dental/contracts';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories } from '#api-test/factories';
import { flosser, orderOf, shipping, shopHelpers, toothbrush } from '#api-test/support/shop';
import { testCheckout } from '#api-test/support/test-checkout';
import { orderNotFoundMessage } from './shop.service';

/** Orders with points in test mode (no Stripe configured): hold, pay, cancel, rules, access. */
let t: TestApp;
let factory: ReturnType<typeof factories>;
const shop = shopHelpers(() => t);
const checkout = testCheckout(() => t, {
  checkout: shopPaths.checkout,
  testCheckoutPay: shopPaths.testCheckoutPay,
  testCheckoutCancel: shopPaths.testCheckoutCancel,
});

beforeAll(async () => {
  t = await buildTestApp();
  factory = factories(t);
});
afterAll(() => t.close());

describe('a supplier page', () => {
  it('lists its products with prices in cents', async () => {
    const { tokens } = await factory.loggedInMember();
    const res = await t.request('GET', oralSupplierItemPath(flosser.supplier_id), {
      token: tokens.access,
    });
    expect(supplier.parse(res.json()).products).toEqual([
      { id: 'cordless-water-flosser', name: 'Cordless water flosser', price_cents: 5999 },
      { id: 'water-flosser-tips-4-pack', name: 'Water flosser tips, 4-pack', price_cents: 1499 },
    ]);
  });
});

describe('POST /api/orders/', () => {
  it('takes the points at once, charges the rest and answers where to pay', async () => {
    const member = await factory.loggedInMember();
    const res = await shop.placeOrder(member.tokens.access, orderOf(flosser, 400, 2));
    expect(res.statusCode).toBe(201);
    const { id, checkout_url } = res.json<{ id: string; checkout_url: string }>();
    expect(checkout_url).toBe(`${shopPaths.checkout}?payment_id=${id}`);
    expect(await shop.order(member.tokens.access, id)).toMatchObject({
      product_name: 'Cordless water flosser',
      quantity: 2,
      unit_price_cents: 5999,
      subtotal_cents: 11998,
      points_used: 400,
      amount_cents: 11598,
      currency: 'usd',
      status: 'pending',
      shipping: { ...shipping, line2: '' },
      paid_at: null,
      checkout_url,
    });
    const points = await shop.points(member.tokens.access);
    expect(points.points).toBe(100);
    expect(
      points.ledger.map(({ kind, points: change, balance, order_id }) => [
        kind,
        change,
        balance,
        order_id,
      ]),
    ).toEqual([
      ['spent', -400, 100, id],
      ['granted', 500, 500, null],
    ]);
  });

  it('refuses more points than the member has: 422, nothing changes', async () => {
    const member = await factory.loggedInMember();
    const res = await shop.placeOrder(member.tokens.access, orderOf(flosser, 501));
    expect(res.statusCode).toBe(422);
    expect(res.headers['content-type']).toContain(problemContentType);
    expect(res.json()).toMatchObject({ errors: { points: ['You have 500 points to use.'] } });
    expect(await shop.storedPoints(member.id)).toBe(500);
    expect(await shop.ordersOf(member.id)).toEqual([]);
    expect((await shop.points(member.tokens.access)).ledger).toHaveLength(1);
  });

  it('refuses points over half the price: 422, nothing changes', async () => {
    const member = await factory.loggedInMember();
    const over = await shop.placeOrder(member.tokens.access, orderOf(toothbrush, 150));
    expect(over.statusCode).toBe(422);
    expect(over.json()).toMatchObject({
      errors: { points: ['Use at most 149 points on this order.'] },
    });
    expect(await shop.ordersOf(member.id)).toEqual([]);
    expect(await shop.storedPoints(member.id)).toBe(500);
    const half = await shop.placeOrder(member.tokens.access, orderOf(toothbrush, 149));
    expect(half.statusCode).toBe(201);
    expect((await shop.ordersOf(member.id))[0]).toMatchObject({ amountCents: 150 });
  });

  it('lets two orders at once spend the same points only once', async () => {
    const member = await factory.loggedInMember();
    const answers = await Promise.all([
      shop.placeOrder(member.tokens.access, orderOf(flosser, 300)),
      shop.placeOrder(member.tokens.access, orderOf(flosser, 300)),
    ]);
    expect(answers.map((res) => res.statusCode).sort()).toEqual([201, 422]);
    expect(await shop.storedPoints(member.id)).toBe(200);
    expect(await shop.ordersOf(member.id)).toHaveLength(1);
    const { ledger } = await shop.points(member.tokens.access);
    expect(ledger.map((entry) => entry.kind)).toEqual(['spent', 'granted']);
  });

  it('takes no points and writes no ledger row for an order without points', async () => {
    const member = await factory.loggedInMember();
    await shop.placed(member.tokens.access, orderOf(toothbrush, 0));
    expect((await shop.points(member.tokens.access)).ledger).toHaveLength(1);
  });

  it.each([
    ['no shipping address', { ...orderOf(flosser, 0), shipping: undefined }, 'shipping'],
    ['a quantity of 0', orderOf(flosser, 0, 0), 'quantity'],
    ['a quantity of 11', orderOf(flosser, 0, 11), 'quantity'],
    ['negative points', orderOf(flosser, -1), 'points'],
    ['fractional points', orderOf(flosser, 1.5), 'points'],
    [
      'a bad ZIP code',
      { ...orderOf(flosser, 0), shipping: { ...shipping, postal_code: '9410' } },
      'shipping.postal_code',
    ],
    ['a malformed supplier id', { ...orderOf(flosser, 0), supplier_id: 'nope' }, 'supplier_id'],
  ])('answers a 400 problem for %s, and nothing changes', async (_what, body, field) => {
    const member = await factory.loggedInMember();
    const res = await shop.placeOrder(member.tokens.access, body);
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain(problemContentType);
    expect(Object.keys(res.json<{ errors: Record<string, unknown> }>().errors)).toContain(field);
    expect(await shop.ordersOf(member.id)).toEqual([]);
    expect(await shop.storedPoints(member.id)).toBe(500);
  });

  it('answers 422 for a product the page does not sell', async () => {
    const member = await factory.loggedInMember();
    const res = await shop.placeOrder(member.tokens.access, {
      ...orderOf(flosser, 100),
      product_id: toothbrush.product_id,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ errors: { product_id: expect.any(Array) as unknown } });
    expect(await shop.storedPoints(member.id)).toBe(500);
  });

  it('needs the bearer token', async () => {
    expect((await shop.placeOrder('', orderOf(flosser, 0))).statusCode).toBe(401);
  });
});

describe('the test-mode checkout of an order', () => {
  it('shows the product, the points and what is paid; Pay keeps the points spent', async () => {
    const member = await factory.loggedInMember();
    const id = await shop.placed(member.tokens.access, orderOf(flosser, 500));
    const { page, token } = await checkout.open(id);
    expect(page.body).toContain('Test mode — no card is charged');
    expect(page.body).toContain('Cordless water flosser × 1');
    expect(page.body).toContain('500 (−$5.00)');
    expect(page.body).toContain('$54.99');
    const paid = await checkout.pay(id, token);
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toBe(`/orders/${id}?payment=paid`);
    expect(await shop.order(member.tokens.access, id)).toMatchObject({
      status: 'paid',
      paid_at: t.clock.now().toISOString(),
      checkout_url: null,
    });
    const [row] = await shop.ordersOf(member.id);
    expect(row).toMatchObject({
      provider: 'test',
      providerSessionId: null,
      cardBrand: 'test card',
      cardLast4: '4242',
    });
    const points = await shop.points(member.tokens.access);
    expect(points.points).toBe(0);
    expect(points.ledger.map((entry) => entry.kind)).toEqual(['spent', 'granted']);
    // A paid checkout cannot be paid or cancelled again.
    expect((await checkout.cancel(id, token)).statusCode).toBe(404);
    expect(await shop.storedPoints(member.id)).toBe(0);
  });

  it('gives the points back once when the member cancels', async () => {
    const member = await factory.loggedInMember();
    const id = await shop.placed(member.tokens.access, orderOf(flosser, 250));
    const { token } = await checkout.open(id);
    const cancelled = await checkout.cancel(id, token);
    expect(cancelled.statusCode).toBe(303);
    expect(cancelled.headers.location).toBe(`/orders/${id}?payment=cancelled`);
    expect((await checkout.cancel(id, token)).statusCode).toBe(404);
    expect((await shop.order(member.tokens.access, id)).status).toBe('cancelled');
    const points = await shop.points(member.tokens.access);
    expect(points.points).toBe(500);
    expect(
      points.ledger.map(({ kind, points: change, balance }) => [kind, change, balance]),
    ).toEqual([
      ['returned', 250, 500],
      ['spent', -250, 250],
      ['granted', 500, 500],
    ]);
  });

  it('refuses a wrong form token and changes nothing', async () => {
    const member = await factory.loggedInMember();
    const id = await shop.placed(member.tokens.access, orderOf(flosser, 100));
    expect((await checkout.pay(id, 'forged')).statusCode).toBe(404);
    expect((await shop.order(member.tokens.access, id)).status).toBe('pending');
  });
});

describe('another member', () => {
  it('gets 404 for the order, and does not see it in their list', async () => {
    const owner = await factory.loggedInMember();
    const other = await factory.loggedInMember();
    const id = await shop.placed(owner.tokens.access, orderOf(flosser, 100));
    const res = await t.request('GET', orderPath(id), { token: other.tokens.access });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toContain(problemContentType);
    expect(res.json()).toMatchObject({ detail: orderNotFoundMessage });
    expect(await shop.orders(other.tokens.access)).toEqual([]);
    expect((await shop.orders(owner.tokens.access)).map((entry) => entry.id)).toEqual([id]);
    // Their ledger shows only their own sign-up bonus.
    expect((await shop.points(other.tokens.access)).ledger).toHaveLength(1);
  });

  it('answers 400 for a malformed order id', async () => {
    const member = await factory.loggedInMember();
    const res = await t.request('GET', orderPath('nope'), { token: member.tokens.access });
    expect(res.statusCode).toBe(400);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { account, accountPaths, endOfYear, membershipPaths } from '@dental/contracts';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories } from '#api-test/factories';
import { flosser, orderOf, shopHelpers } from '#api-test/support/shop';
import { testCheckout } from '#api-test/support/test-checkout';
import { TestClock } from '#api-test/test-clock';
import { pendingOrderLimitMs } from './shop.service';

/** Points expire at the end of the year they were granted (injected clock, one hour before). */
let t: TestApp;
let factory: ReturnType<typeof factories>;
const shop = shopHelpers(() => t);
const hour = 60 * 60 * 1000;

beforeAll(async () => {
  t = await buildTestApp({ clock: new TestClock(new Date('2026-12-31T23:00:00.000Z')) });
  factory = factories(t);
});
afterAll(() => t.close());

const kinds = (ledger: { kind: string; points: number; balance: number }[]) =>
  ledger.map(({ kind, points, balance }) => [kind, points, balance]);

describe('points at the end of the year', () => {
  it('expire with a ledger row, cannot be used, and come back expired from a later failed order', async () => {
    const member = await factory.loggedInMember();
    const pending = await shop.placed(member.tokens.access, orderOf(flosser, 100));
    expect(await shop.storedPoints(member.id)).toBe(400);

    t.clock.advance(hour);
    // Access tokens do not outlive a moved clock.
    const access = (await factory.login(member)).access;
    const refused = await shop.placeOrder(access, orderOf(flosser, 1));
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ errors: { points: ['You have 0 points to use.'] } });
    const after = await shop.points(access);
    expect(after).toMatchObject({
      points: 0,
      points_expired_at: '2026-12-31T23:59:59.999Z',
    });
    expect(kinds(after.ledger)).toEqual([
      ['expired', -400, 0],
      ['spent', -100, 400],
      ['granted', 500, 500],
    ]);

    // The pending order's checkout can no longer be paid: its points return, already expired.
    t.clock.advance(pendingOrderLimitMs);
    const later = (await factory.login(member)).access;
    expect((await shop.order(later, pending)).status).toBe('cancelled');
    const final = await shop.points(later);
    expect(final.points).toBe(0);
    expect(kinds(final.ledger).slice(0, 2)).toEqual([
      ['expired', -100, 0],
      ['returned', 100, 100],
    ]);
  });

  it('leaves unexpired points usable until the last moment of the year', async () => {
    const member = await factory.loggedInMember();
    const yearEnd = endOfYear(t.clock.now()).getTime();
    t.clock.advance(yearEnd - t.clock.now().getTime() - 1);
    const access = (await factory.login(member)).access;
    expect((await shop.placeOrder(access, orderOf(flosser, 500))).statusCode).toBe(201);
  });

  it('are expired before a plan’s bonus of the new year is added', async () => {
    const member = await factory.loggedInMember();
    t.clock.advance(366 * 24 * hour);
    const access = (await factory.login(member)).access;
    const chosen = await t.request('POST', membershipPaths.choosePlan, {
      token: access,
      body: { memberId: member.id, selectedPlan: 'Gold' },
    });
    const paymentId = chosen.json<{ id: string }>().id;
    const steps = testCheckout(() => t, membershipPaths);
    const { token } = await steps.open(paymentId);
    expect((await steps.pay(paymentId, token)).statusCode).toBe(303);
    const points = await shop.points(access);
    expect(points).toMatchObject({
      points: 3000,
      points_expired_at: endOfYear(t.clock.now()).toISOString(),
    });
    expect(points.ledger.map(({ kind, points: change, plan }) => [kind, change, plan])).toEqual([
      ['granted', 3000, 'Gold'],
      ['expired', -500, null],
      ['granted', 500, 'Silver'],
    ]);
  });

  it('show as 0 on the Profile once the year has ended, with the expired row written', async () => {
    const member = await factory.loggedInMember();
    t.clock.advance(366 * 24 * hour);
    const access = (await factory.login(member)).access;
    const res = await t.request('GET', accountPaths.account, { token: access });
    expect(account.parse(res.json()).points).toBe(0);
    expect(await shop.storedPoints(member.id)).toBe(0);
    expect(kinds((await shop.points(access)).ledger)).toEqual([
      ['expired', -500, 0],
      ['granted', 500, 500],
    ]);
  });
});

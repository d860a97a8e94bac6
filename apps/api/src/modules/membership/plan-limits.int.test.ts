import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { membershipPaths, plans } from '@dental/contracts';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories } from '#api-test/factories';
import { membershipHelpers } from '#api-test/support/membership';

/** The Dental AI limit of the plan limits counts uses in the current membership year. */
let t: TestApp;
let factory: ReturnType<typeof factories>;
let helpers: ReturnType<typeof membershipHelpers>;

beforeAll(async () => {
  t = await buildTestApp();
  factory = factories(t);
  helpers = membershipHelpers(t);
});
afterAll(() => t.close());

/** Asks the plan limits for one more use with `used` uses counted, and records the moment asked about. */
async function reserve(userId: string, used: number) {
  const asked: Date[] = [];
  await t.db.transaction((tx) =>
    t.services.planLimits.reserveUse('dentalAiUsesPerYear', tx, userId, t.clock.now(), (since) => {
      asked.push(since);
      return Promise.resolve(used);
    }),
  );
  return asked;
}

describe('PlanLimitsService.reserveUse', () => {
  it('allows a Silver member the plan’s uses from the account’s anniversary, then names Gold', async () => {
    const createdAt = t.clock.now();
    const member = await factory.member();
    const allowed = plans.Silver.dentalAiUsesPerYear;
    expect(await reserve(member.id, allowed - 1)).toHaveLength(1);
    await expect(reserve(member.id, allowed)).rejects.toMatchObject({
      status: 422,
      detail: `You have used all ${String(allowed)} Dental AI diagnoses of your Silver plan for this membership year. The Gold plan raises it to ${String(plans.Gold.dentalAiUsesPerYear)} a year.`,
    });
    const [since] = await reserve(member.id, 0);
    expect(Math.abs((since?.getTime() ?? 0) - createdAt.getTime())).toBeLessThan(5_000);
  });

  it('counts from the paid membership’s start for Gold', async () => {
    const member = await factory.loggedInMember();
    const { id } = (
      await helpers.choosePlan(member.tokens.access, { memberId: member.id, selectedPlan: 'Gold' })
    ).json<{ id: string }>();
    t.clock.advance(60_000);
    const page = await t.request('GET', `${membershipPaths.testCheckout}?payment_id=${id}`);
    const token = /name="token" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
    await t.request('POST', membershipPaths.testCheckoutPay, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ payment_id: id, token }).toString(),
    });
    const paidAt = t.clock.now();
    expect(await reserve(member.id, plans.Silver.dentalAiUsesPerYear)).toEqual([paidAt]);
    await expect(reserve(member.id, plans.Gold.dentalAiUsesPerYear)).rejects.toMatchObject({
      status: 422,
    });
  });
});

import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import {
  accountPaths,
  account,
  membershipPaths,
  type Account,
  type PlanName,
} from '@dental/contracts';
import type { TestApp } from '../build-test-app';
import { testCheckout } from './test-checkout';
import { membershipPayments, users, type MembershipPaymentRow } from '#api/db/schema';

/** What the helpers need of a signed-in member. */
interface Member {
  id: string;
  tokens: { access: string };
}

/** Requests and reads shared by the membership and receipts integration tests. */
export function membershipHelpers(t: TestApp) {
  const choosePlan = (access: string, body: unknown) =>
    t.request('POST', membershipPaths.choosePlan, { token: access, body });
  const {
    checkout,
    postForm,
    pay,
    cancel,
    open: openTestCheckout,
  } = testCheckout(() => t, membershipPaths);

  async function choose(member: Member, selectedPlan: string): Promise<string> {
    const res = await choosePlan(member.tokens.access, { memberId: member.id, selectedPlan });
    expect(res.statusCode).toBe(200);
    return res.json<{ id: string }>().id;
  }

  return {
    choosePlan,
    checkout,
    postForm,
    pay,
    cancel,
    choose,
    openTestCheckout,

    /** Chooses the plan and pays for it on the test-mode page; answers the payment's id. */
    async buy(member: Member, plan: PlanName): Promise<string> {
      const id = await choose(member, plan);
      const { token } = await openTestCheckout(id);
      expect((await pay(id, token)).statusCode).toBe(303);
      return id;
    },

    async account(access: string): Promise<Account> {
      return account.parse(
        (await t.request('GET', accountPaths.account, { token: access })).json(),
      );
    },

    /** Level and points straight from the database (tokens do not outlive a moved clock). */
    async levelOf(userId: string) {
      const [row] = await t.db
        .select({ customer_level: users.customerLevel, points: users.points })
        .from(users)
        .where(eq(users.id, userId));
      return row;
    },

    async payment(id: string): Promise<MembershipPaymentRow | undefined> {
      const [row] = await t.db
        .select()
        .from(membershipPayments)
        .where(eq(membershipPayments.id, id));
      return row;
    },

    async paymentsOf(userId: string): Promise<MembershipPaymentRow[]> {
      return t.db.select().from(membershipPayments).where(eq(membershipPayments.userId, userId));
    },
  };
}

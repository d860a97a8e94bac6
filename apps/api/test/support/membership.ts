import { eq } from 'drizzle-orm';
import {
  accountPaths,
  account,
  membershipPaths,
  type Account,
  type PlanName,
} from '@dental/contracts';
import type { TestApp } from '../build-test-app';
import { membershipPayments, users, type MembershipPaymentRow } from '#api/db/schema';

/** Requests and reads shared by the membership integration tests. */
export function membershipHelpers(t: TestApp) {
  return {
    choosePlan: (access: string, body: unknown) =>
      t.request('POST', membershipPaths.choosePlan, { token: access, body }),

    /** Chooses `plan` and pays for it through the test-mode checkout; the payment's id. */
    async buy(member: { id: string; tokens: { access: string } }, plan: PlanName): Promise<string> {
      const chosen = await t.request('POST', membershipPaths.choosePlan, {
        token: member.tokens.access,
        body: { memberId: member.id, selectedPlan: plan },
      });
      const { id } = chosen.json<{ id: string }>();
      const page = await t.request('GET', `${membershipPaths.testCheckout}?payment_id=${id}`);
      const token = /name="token" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
      const paid = await t.request('POST', membershipPaths.testCheckoutPay, {
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ payment_id: id, token }).toString(),
      });
      if (paid.statusCode !== 303) throw new Error(`The test checkout answered ${paid.body}`);
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

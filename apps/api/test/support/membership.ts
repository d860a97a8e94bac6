import { eq } from 'drizzle-orm';
import { accountPaths, account, membershipPaths, type Account } from '@dental/contracts';
import type { TestApp } from '../build-test-app';
import { membershipPayments, users, type MembershipPaymentRow } from '#api/db/schema';

/** Requests and reads shared by the membership integration tests. */
export function membershipHelpers(t: TestApp) {
  return {
    choosePlan: (access: string, body: unknown) =>
      t.request('POST', membershipPaths.choosePlan, { token: access, body }),

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

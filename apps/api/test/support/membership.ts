import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { accountPaths, account, membershipPaths, type Account } from '@dental/contracts';
import type { TestApp } from '../build-test-app';
import type { factories } from '../factories';
import { membershipPayments, users, type MembershipPaymentRow } from '#api/db/schema';

type Member = Awaited<ReturnType<ReturnType<typeof factories>['loggedInMember']>>;

/** Requests and reads shared by the membership and receipts integration tests. */
export function membershipHelpers(t: TestApp) {
  const choosePlan = (access: string, body: unknown) =>
    t.request('POST', membershipPaths.choosePlan, { token: access, body });
  const checkout = (paymentId: string) =>
    t.request('GET', `${membershipPaths.checkout}?payment_id=${paymentId}`);
  const postForm = (url: string, fields: Record<string, string>) =>
    t.request('POST', url, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
  const pay = (paymentId: string, token: string) =>
    postForm(membershipPaths.testCheckoutPay, { payment_id: paymentId, token });
  const cancel = (paymentId: string, token: string) =>
    postForm(membershipPaths.testCheckoutCancel, { payment_id: paymentId, token });

  async function choose(member: Member, selectedPlan: string): Promise<string> {
    const res = await choosePlan(member.tokens.access, { memberId: member.id, selectedPlan });
    expect(res.statusCode).toBe(200);
    return res.json<{ id: string }>().id;
  }

  /** Opens the test-mode page the checkout redirects to and reads the token of its forms. */
  async function openTestCheckout(paymentId: string) {
    const redirect = await checkout(paymentId);
    expect(redirect.statusCode).toBe(303);
    const page = await t.request('GET', String(redirect.headers.location));
    expect(page.statusCode).toBe(200);
    const token = /name="token" value="([^"]+)"/.exec(page.body)?.[1];
    if (token === undefined) throw new Error('the checkout page has no form token');
    return { page, token };
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
    async buy(member: Member, plan: string): Promise<string> {
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

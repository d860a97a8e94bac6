import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import {
  endOfYear,
  isUpgrade,
  membershipPaths,
  planName,
  plans,
  type ChoosePlanRequest,
  type ChoosePlanResponse,
  type CurrentPlan,
} from '@dental/contracts';
import type { Mailer } from '#api/adapters/mailer';
import {
  InvalidSignature,
  paymentCurrency,
  type PaymentCard,
  type PaymentEvent,
  type PaymentProvider,
} from '#api/adapters/payments/payment-provider';
import type { Clock } from '#api/clock';
import { BadRequest, Forbidden, NotFound, UnprocessableEntity } from '#api/domain-errors';
import type { MembershipPaymentRow } from '#api/db/schema';
import type { ErrorLogger } from '#api/logger';
import {
  expiryReminderMail,
  receiptMail,
  type MailContext,
  type Receipt,
} from './membership-messages';
import type { MembershipRepository } from './membership.repository';
import type { AuditActor, AuditRecorder } from '../audit/audit.service';

/** A checkout link works this long after the plan was chosen
 *  (docs/product/membership.md#checkout). */
export const checkoutLifetimeMs = 30 * 60 * 1000;
/** The "your membership ends soon" e-mail goes out this long before the end. */
export const expiryReminderMs = 14 * 24 * 60 * 60 * 1000;
/** Memberships handled per sweep; the next sweep takes the rest. */
const sweepBatch = 100;

const checkoutNotFound = () => new NotFound('This checkout has expired or does not exist.');

/** One year after `at`; 29 February is followed by 28 February. */
export function oneYearAfter(at: Date): Date {
  const next = new Date(at);
  next.setUTCFullYear(at.getUTCFullYear() + 1);
  if (next.getUTCMonth() !== at.getUTCMonth()) next.setUTCDate(0);
  return next;
}

const sameToken = (expected: string, given: string) => {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
};

/** What of a verified event differs from the stored payment; an expiry names only the session. */
function mismatchOf(
  payment: MembershipPaymentRow,
  { session, outcome }: PaymentEvent,
): 'session' | 'amount' | 'currency' | undefined {
  if (session?.id !== payment.providerSessionId) return 'session';
  if (outcome !== 'completed') return undefined;
  if (session.amountCents !== payment.amountCents) return 'amount';
  if (session.currency !== paymentCurrency) return 'currency';
  return undefined;
}

/** What a test-mode checkout page shows. */
export type TestCheckout = Pick<MembershipPaymentRow, 'id' | 'plan' | 'amountCents' | 'formToken'>;

/**
 * Plan choice, checkout and completion (docs/product/membership.md). Completion is one
 * transactional, idempotent function used by both the Stripe webhook and the test-mode Pay.
 */
export class MembershipService {
  constructor(
    private readonly repository: MembershipRepository,
    private readonly provider: PaymentProvider,
    private readonly mailer: Mailer,
    private readonly clock: Clock,
    private readonly mail: MailContext,
    private readonly log: ErrorLogger,
    private readonly audit?: AuditRecorder,
    /** Events of shop orders' checkouts, which Stripe sends to the same webhook. */
    private readonly orderEvents?: (event: PaymentEvent) => Promise<void>,
  ) {}

  /** The member's plan and the end of a paid term, for Membership and Profile. */
  async current(userId: string): Promise<CurrentPlan> {
    const row = await this.repository.currentPlan(userId);
    if (row === undefined) throw new NotFound('This account no longer exists.');
    return { plan: row.plan, ends_at: row.endsAt?.toISOString() ?? null };
  }

  async choosePlan(callerId: string, request: ChoosePlanRequest): Promise<ChoosePlanResponse> {
    if (request.memberId !== callerId) {
      throw new Forbidden('You can choose a plan only for your own account.');
    }
    const parsed = planName.safeParse(request.selectedPlan);
    if (!parsed.success) {
      throw new UnprocessableEntity(`"${request.selectedPlan}" is not a membership plan.`, {
        selectedPlan: ['Choose Gold or Platinum.'],
      });
    }
    const plan = plans[parsed.data];
    if (plan.priceCents === 0) {
      throw new UnprocessableEntity(`${plan.name} is the free plan; there is nothing to buy.`, {
        selectedPlan: ['Choose a paid plan.'],
      });
    }
    const member = await this.repository.activeMember(callerId);
    if (member === undefined) throw new NotFound('This account no longer exists.');
    if (!isUpgrade(member.level, plan.name)) {
      throw new UnprocessableEntity(
        `You are already a ${member.level} member. Choose a plan above ${member.level}.`,
        { selectedPlan: [`Choose a plan above ${member.level}.`] },
      );
    }
    const id = randomUUID();
    const session = await this.provider.createCheckout({
      paymentId: id,
      purpose: 'membership',
      description: `${plan.name} membership (one year)`,
      amountCents: plan.priceCents,
      customerEmail: member.email,
      returnPath: '/membership',
      testCheckoutPath: membershipPaths.testCheckout,
    });
    await this.repository.insertPayment({
      id,
      userId: callerId,
      plan: plan.name,
      amountCents: plan.priceCents,
      provider: this.provider.kind,
      providerSessionId: session.sessionId,
      checkoutUrl: session.url,
      formToken: randomBytes(32).toString('base64url'),
      createdAt: this.clock.now(),
      currency: paymentCurrency.toUpperCase(),
    });
    return { id };
  }

  /** A pending payment chosen at most 30 minutes ago; anything else is "not found". */
  private async openPayment(paymentId: string): Promise<MembershipPaymentRow> {
    const payment = await this.repository.findPayment(paymentId);
    const age =
      payment === undefined ? Infinity : this.clock.now().getTime() - payment.createdAt.getTime();
    if (payment?.status !== 'pending' || age > checkoutLifetimeMs) throw checkoutNotFound();
    return payment;
  }

  /** Where the browser goes to pay: the provider's checkout page. */
  async checkoutUrl(paymentId: string): Promise<string> {
    return (await this.openPayment(paymentId)).checkoutUrl;
  }

  async testCheckout(paymentId: string): Promise<TestCheckout> {
    const payment = await this.openPayment(paymentId);
    if (payment.provider !== 'test') throw checkoutNotFound();
    return payment;
  }

  /** The payment of a posted test-mode form, when its token matches. */
  private async testCheckoutForm(paymentId: string, token: string): Promise<TestCheckout> {
    const payment = await this.testCheckout(paymentId);
    if (!sameToken(payment.formToken, token)) throw checkoutNotFound();
    return payment;
  }

  /** Test-mode Pay: the same completion as a Stripe webhook. */
  async payTestCheckout(paymentId: string, token: string): Promise<void> {
    await this.testCheckoutForm(paymentId, token);
    const card = await this.provider.paidWith(null);
    const receipt = await this.repository.transaction((tx) => this.complete(tx, paymentId, card));
    await this.afterCompletion(receipt, receipt?.userId ?? 'anonymous');
  }

  async cancelTestCheckout(paymentId: string, token: string): Promise<void> {
    await this.testCheckoutForm(paymentId, token);
    await this.repository.transaction((tx) => this.cancel(tx, paymentId));
  }

  /** A provider webhook: verified, then processed once per event id. */
  async handleWebhook(rawBody: Buffer, signature: string): Promise<void> {
    const verify = this.provider.verifyWebhook?.bind(this.provider);
    if (verify === undefined) throw new NotFound('Payment webhooks are not used in test mode.');
    let event;
    try {
      event = await verify(rawBody, signature);
    } catch (error) {
      if (error instanceof InvalidSignature) {
        throw new BadRequest('The webhook signature is not valid.');
      }
      throw error;
    }
    if (event.purpose === 'order' && this.orderEvents !== undefined) {
      await this.orderEvents(event);
      return;
    }
    const { paymentId, outcome } = event;
    // Asked before the transaction, so no lock waits on Stripe; a failure answers 500 before the
    // event is recorded, and Stripe delivers it again.
    const card = outcome === 'completed' ? await this.provider.paidWith(event) : null;
    const receipt = await this.repository.transaction(async (tx) => {
      if (!(await tx.recordEvent(event.id, event.type, this.clock.now()))) return null;
      if (paymentId === null) return null;
      if (outcome !== 'ignored' && !(await this.matchesPayment(tx, paymentId, event))) return null;
      if (outcome === 'completed') return this.complete(tx, paymentId, card);
      if (outcome === 'expired') await this.cancel(tx, paymentId);
      return null;
    });
    await this.afterCompletion(receipt, 'payment provider');
  }

  /**
   * Whether a verified event is about the checkout session stored for the payment, for its amount
   * in its currency (an expiry needs only the session). A correctly signed event for another
   * session or price changes nothing and is logged (docs/decisions/payments-on-public-servers.md).
   */
  private async matchesPayment(
    tx: MembershipRepository,
    paymentId: string,
    event: PaymentEvent,
  ): Promise<boolean> {
    const payment = await tx.lockPayment(paymentId);
    if (payment === undefined) return false;
    const mismatch = mismatchOf(payment, event);
    if (mismatch === undefined) return true;
    (this.log.warn ?? this.log.error).call(
      this.log,
      { eventId: event.id, paymentId, mismatch },
      'payment event does not match the stored payment; ignored',
    );
    return false;
  }

  /**
   * Applies a paid payment once: level, bonus points (expiring at the end of this year), a
   * one-year term. A payment already applied is left alone; one for a plan at or below the
   * level reached meanwhile is marked superseded (no downgrade, no points; sales are final).
   * Paid after its checkout was cancelled or expired still counts: the money was taken. Either
   * way the payment gets its receipt number and card (docs/decisions/receipts.md).
   */
  private async complete(
    tx: MembershipRepository,
    paymentId: string,
    card: PaymentCard | null,
  ): Promise<Receipt | null> {
    const payment = await tx.lockPayment(paymentId);
    if (payment === undefined || payment.status === 'paid' || payment.status === 'superseded') {
      return null;
    }
    const member = await tx.lockMember(payment.userId);
    if (member === undefined) return null;
    const now = this.clock.now();
    if (!isUpgrade(member.level, payment.plan)) {
      await tx.recordPaid(payment.id, 'superseded', now, card);
      return null;
    }
    const plan = plans[payment.plan];
    const expiresAt = oneYearAfter(now);
    await tx.applyPlan(payment.userId, plan.name, plan.signUpBonusPoints, endOfYear(now), now);
    await tx.startMembership(payment.userId, plan.name, now, expiresAt);
    const receiptNumber = await tx.recordPaid(payment.id, 'paid', now, card);
    return {
      receiptNumber,
      userId: payment.userId,
      email: member.email,
      username: member.username,
      paymentId: payment.id,
      plan: plan.name,
      amountCents: payment.amountCents,
      paidAt: now,
      expiresAt,
    };
  }

  private async cancel(tx: MembershipRepository, paymentId: string): Promise<void> {
    const payment = await tx.lockPayment(paymentId);
    if (payment?.status === 'pending') await tx.cancelPayment(paymentId, this.clock.now());
  }

  /** After the commit: the purchase joins the member's audit trail, then the receipt goes out. */
  private async afterCompletion(receipt: Receipt | null, actor: AuditActor): Promise<void> {
    if (receipt === null) return;
    await this.audit?.record({
      memberId: receipt.userId,
      actor,
      action: 'plan_purchase',
      resourceType: 'membership',
      resourceId: receipt.paymentId,
      result: 'success',
    });
    await this.sendReceipt(receipt);
  }

  /** After the commit: a lost e-mail must not undo a payment. */
  private async sendReceipt(receipt: Receipt): Promise<void> {
    try {
      await this.mailer.send(receiptMail(receipt, this.mail));
    } catch (error) {
      this.log.error({ err: error, paymentId: receipt.paymentId }, 'membership receipt not sent');
    }
  }

  /**
   * The expiry job: e-mails members whose term ends within 14 days, and returns ended terms to
   * Silver. Each batch is one transaction, so a failed e-mail is retried on the next sweep.
   */
  async sweepExpiry(): Promise<{ reminded: number; ended: number }> {
    const now = this.clock.now();
    const reminded = await this.repository.transaction(async (tx) => {
      const due = await tx.dueReminders(
        now,
        new Date(now.getTime() + expiryReminderMs),
        sweepBatch,
      );
      let sent = 0;
      for (const member of due) {
        try {
          await this.mailer.send(expiryReminderMail(member, this.mail));
        } catch (error) {
          // Left unmarked, so the next sweep tries again.
          this.log.error({ err: error, userId: member.userId }, 'membership reminder not sent');
          continue;
        }
        await tx.markReminderSent(member.userId, now);
        sent += 1;
      }
      return sent;
    });
    const ended = await this.repository.transaction(async (tx) => {
      const due = await tx.ended(now, sweepBatch);
      for (const member of due) await tx.returnToSilver(member.userId, now);
      return due.length;
    });
    return { reminded, ended };
  }
}

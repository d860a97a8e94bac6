import { and, eq, gt, isNull, lte } from 'drizzle-orm';
import type { PlanName } from '@dental/contracts';
import type { PaymentCard } from '#api/adapters/payments/payment-provider';
import type { Database } from '#api/db/client';
import { nextReceiptNumber } from '#api/db/receipt-numbers';
import { memberships, membershipPayments, users, type MembershipPaymentRow } from '#api/db/schema';
import { PointsLedger } from '#api/db/points-ledger';
import { recordPaymentEvent } from '#api/db/payment-events';

export type NewPayment = Omit<
  MembershipPaymentRow,
  'status' | 'completedAt' | 'receiptNumber' | 'cardBrand' | 'cardLast4'
>;

export interface MemberState {
  email: string;
  username: string;
  level: PlanName;
}

export interface DueMembership {
  userId: string;
  plan: PlanName;
  expiresAt: Date;
  email: string;
  username: string;
}

/** Payments, memberships and processed provider events
 *  (docs/product/membership.md#membership-calls). */
export class MembershipRepository {
  /** @param db the database, or the transaction of one completion */
  constructor(private readonly db: Database) {}

  /** The same queries inside a transaction. */
  in(tx: Database): MembershipRepository {
    return new MembershipRepository(tx);
  }

  transaction<T>(work: (repository: MembershipRepository) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => work(new MembershipRepository(tx)));
  }

  async activeMember(userId: string): Promise<MemberState | undefined> {
    const [row] = await this.db
      .select({ email: users.email, username: users.username, level: users.customerLevel })
      .from(users)
      .where(and(eq(users.id, userId), isNull(users.deactivatedAt)));
    return row;
  }

  /** The member, locked until the transaction ends: completions of one member take turns. */
  async lockMember(userId: string): Promise<MemberState | undefined> {
    const [row] = await this.db
      .select({ email: users.email, username: users.username, level: users.customerLevel })
      .from(users)
      .where(eq(users.id, userId))
      .for('update');
    return row;
  }

  /**
   * The anchor of the member's membership years: the start of the paid term, or the account's
   * creation for Silver (see membershipYearStart).
   */
  async membershipAnchor(userId: string): Promise<Date | undefined> {
    const [row] = await this.db
      .select({ createdAt: users.createdAt, startedAt: memberships.startedAt })
      .from(users)
      .leftJoin(memberships, eq(memberships.userId, users.id))
      .where(eq(users.id, userId));
    return row === undefined ? undefined : (row.startedAt ?? row.createdAt);
  }

  /** The member's level and the end of the paid term, if any. */
  async currentPlan(userId: string): Promise<{ plan: PlanName; endsAt: Date | null } | undefined> {
    const [row] = await this.db
      .select({ plan: users.customerLevel, endsAt: memberships.expiresAt })
      .from(users)
      .leftJoin(memberships, eq(memberships.userId, users.id))
      .where(eq(users.id, userId));
    return row;
  }

  async insertPayment(payment: NewPayment): Promise<void> {
    await this.db.insert(membershipPayments).values(payment);
  }

  async findPayment(id: string): Promise<MembershipPaymentRow | undefined> {
    const [row] = await this.db
      .select()
      .from(membershipPayments)
      .where(eq(membershipPayments.id, id));
    return row;
  }

  async lockPayment(id: string): Promise<MembershipPaymentRow | undefined> {
    const [row] = await this.db
      .select()
      .from(membershipPayments)
      .where(eq(membershipPayments.id, id))
      .for('update');
    return row;
  }

  async cancelPayment(id: string, at: Date): Promise<void> {
    await this.db
      .update(membershipPayments)
      .set({ status: 'cancelled', completedAt: at })
      .where(eq(membershipPayments.id, id));
  }

  /** The money was taken: the status, the card, and the next receipt number, which it answers. */
  async recordPaid(
    id: string,
    status: 'paid' | 'superseded',
    at: Date,
    card: PaymentCard | null,
  ): Promise<string> {
    const [row] = await this.db
      .update(membershipPayments)
      .set({
        status,
        completedAt: at,
        receiptNumber: nextReceiptNumber(at),
        cardBrand: card?.brand ?? null,
        cardLast4: card?.last4 ?? null,
      })
      .where(eq(membershipPayments.id, id))
      .returning({ receiptNumber: membershipPayments.receiptNumber });
    if (row?.receiptNumber === undefined || row.receiptNumber === null)
      throw new Error(`payment ${id} was not updated`);
    return row.receiptNumber;
  }

  /** The plan's level and bonus points; unexpired points of earlier grants are kept. */
  async applyPlan(
    userId: string,
    plan: PlanName,
    bonusPoints: number,
    pointsExpireAt: Date,
    at: Date,
  ) {
    await this.db
      .update(users)
      .set({ customerLevel: plan, updatedAt: at })
      .where(eq(users.id, userId));
    await new PointsLedger(this.db).grant(userId, bonusPoints, plan, pointsExpireAt, at);
  }

  /** Starts a new one-year term (a later upgrade replaces the current term). */
  async startMembership(userId: string, plan: PlanName, startedAt: Date, expiresAt: Date) {
    const term = { plan, startedAt, expiresAt, reminderSentAt: null };
    await this.db
      .insert(memberships)
      .values({ userId, ...term })
      .onConflictDoUpdate({ target: memberships.userId, set: term });
  }

  recordEvent(eventId: string, type: string, at: Date): Promise<boolean> {
    return recordPaymentEvent(this.db, eventId, type, at);
  }

  /** Terms ending on or before `remindBefore` whose reminder has not gone out, locked. */
  dueReminders(now: Date, remindBefore: Date, limit: number): Promise<DueMembership[]> {
    return this.due(
      and(
        isNull(memberships.reminderSentAt),
        gt(memberships.expiresAt, now),
        lte(memberships.expiresAt, remindBefore),
      ),
      limit,
    );
  }

  /** Terms that have ended, locked. */
  ended(now: Date, limit: number): Promise<DueMembership[]> {
    return this.due(lte(memberships.expiresAt, now), limit);
  }

  private due(condition: ReturnType<typeof and>, limit: number): Promise<DueMembership[]> {
    return this.db
      .select({
        userId: memberships.userId,
        plan: memberships.plan,
        expiresAt: memberships.expiresAt,
        email: users.email,
        username: users.username,
      })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(condition)
      .orderBy(memberships.expiresAt)
      .limit(limit)
      .for('update', { of: memberships, skipLocked: true });
  }

  async markReminderSent(userId: string, at: Date): Promise<void> {
    await this.db
      .update(memberships)
      .set({ reminderSentAt: at })
      .where(eq(memberships.userId, userId));
  }

  /** Ends the term: the member is Silver again; points keep their own expiry. */
  async returnToSilver(userId: string, at: Date): Promise<void> {
    await this.db
      .update(users)
      .set({ customerLevel: 'Silver', updatedAt: at })
      .where(eq(users.id, userId));
    await this.db.delete(memberships).where(eq(memberships.userId, userId));
  }
}

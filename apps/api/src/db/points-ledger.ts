import { and, desc, eq, gt, gte, sql } from 'drizzle-orm';
import type { PlanName } from '@dental/contracts';
import type { Database } from './client';
import { pointsLedger, users, type PointsLedgerRow } from './schema';

/** The ledger answers this many of the newest changes; a member gains a few rows a year. */
export const ledgerLimit = 200;

type LedgerKind = PointsLedgerRow['kind'];

/**
 * `users.points` and its ledger (docs/decisions/points-shop.md), shared by sign-up, membership
 * and the shop. Every method that changes the
 * points writes the ledger row in the same statement's transaction; callers run them inside one
 * (`transaction`, or the transaction of the grant or order they belong to).
 */
export class PointsLedger {
  constructor(private readonly db: Database) {}

  in(tx: Database): PointsLedger {
    return new PointsLedger(tx);
  }

  transaction<T>(work: (repository: PointsLedger) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => work(this.in(tx)));
  }

  private async record(
    userId: string,
    kind: LedgerKind,
    points: number,
    balance: number,
    at: Date,
    about: { plan?: PlanName; orderId?: string } = {},
  ): Promise<void> {
    await this.db.insert(pointsLedger).values({
      userId,
      kind,
      points,
      balance,
      at,
      plan: about.plan ?? null,
      orderId: about.orderId ?? null,
    });
  }

  /** The sign-up bonus a new account was created with (the caller inserted the account). */
  recordSignUpGrant(user: { id: string; points: number; customerLevel: PlanName }, at: Date) {
    return this.record(user.id, 'granted', user.points, user.points, at, {
      plan: user.customerLevel,
    });
  }

  /**
   * Points past their `points_expired_at` become 0 with an 'expired' row. The row is locked
   * first, so a grant or an order of the same member waits for this and sees the result.
   */
  async expireDue(userId: string, now: Date): Promise<void> {
    const [row] = await this.db
      .select({ points: users.points, expiresAt: users.pointsExpiredAt })
      .from(users)
      .where(eq(users.id, userId))
      .for('update');
    if (row === undefined || row.points <= 0) return;
    if (row.expiresAt === null || row.expiresAt > now) return;
    await this.db.update(users).set({ points: 0, updatedAt: now }).where(eq(users.id, userId));
    await this.record(userId, 'expired', -row.points, 0, now);
  }

  /** A plan's bonus: added to the points left (after any that expired) and expiring with them
   *  at `expiresAt`. */
  async grant(userId: string, points: number, plan: PlanName, expiresAt: Date, now: Date) {
    await this.expireDue(userId, now);
    const [row] = await this.db
      .update(users)
      .set({
        points: sql`${users.points} + ${points}`,
        pointsExpiredAt: expiresAt,
        updatedAt: now,
      })
      .where(eq(users.id, userId))
      .returning({ balance: users.points });
    if (row !== undefined) await this.record(userId, 'granted', points, row.balance, now, { plan });
  }

  /**
   * Takes `points` for an order in one conditional update: only when that many are there and
   * not expired, so two orders at once cannot spend the same points. False when they are not.
   */
  async spend(userId: string, points: number, orderId: string, now: Date): Promise<boolean> {
    const [row] = await this.db
      .update(users)
      .set({ points: sql`${users.points} - ${points}`, updatedAt: now })
      .where(and(eq(users.id, userId), gte(users.points, points), gt(users.pointsExpiredAt, now)))
      .returning({ balance: users.points });
    if (row === undefined) return false;
    await this.record(userId, 'spent', -points, row.balance, now, { orderId });
    return true;
  }

  /**
   * Gives an order's points back. `expiredMeanwhile`: the year they belonged to has ended since
   * they were taken, so they come back and expire at once, and the ledger shows both.
   */
  async giveBack(
    userId: string,
    points: number,
    orderId: string,
    now: Date,
    expiredMeanwhile: boolean,
  ): Promise<void> {
    const [row] = await this.db
      .update(users)
      .set({ points: sql`${users.points} + ${points}`, updatedAt: now })
      .where(eq(users.id, userId))
      .returning({ balance: users.points });
    if (row === undefined) return;
    await this.record(userId, 'returned', points, row.balance, now, { orderId });
    if (!expiredMeanwhile) return;
    await this.db
      .update(users)
      .set({ points: sql`${users.points} - ${points}` })
      .where(eq(users.id, userId));
    await this.record(userId, 'expired', -points, row.balance - points, now, { orderId });
  }

  async balance(userId: string) {
    const [row] = await this.db
      .select({ points: users.points, expiresAt: users.pointsExpiredAt })
      .from(users)
      .where(eq(users.id, userId));
    return row;
  }

  ledger(userId: string): Promise<PointsLedgerRow[]> {
    return this.db
      .select()
      .from(pointsLedger)
      .where(eq(pointsLedger.userId, userId))
      .orderBy(desc(pointsLedger.seq))
      .limit(ledgerLimit);
  }
}

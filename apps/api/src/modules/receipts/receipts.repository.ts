import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { ReceiptKind } from '@dental/contracts';
import type { Database } from '#api/db/client';
import { membershipPayments, shopOrders, users } from '#api/db/schema';

/** A receipt as stored, whatever was bought. */
export interface StoredReceipt {
  id: string;
  number: string;
  kind: ReceiptKind;
  description: string;
  amountCents: number;
  currency: string;
  paidAt: Date;
  cardBrand: string | null;
  cardLast4: string | null;
}

/**
 * The receipts of one kind: the member's paid rows of one table, or the one with `id`. A new
 * kind of purchase (shop orders) adds one of these to `sources` (docs/decisions/receipts.md).
 */
type ReceiptSource = (db: Database, memberId: string, id?: string) => Promise<StoredReceipt[]>;

/** Membership payments whose money was taken: they alone have a receipt number. */
const membershipReceipts: ReceiptSource = async (db, memberId, id) => {
  const rows = await db
    .select({
      id: membershipPayments.id,
      number: membershipPayments.receiptNumber,
      description: sql<string>`${membershipPayments.plan} || ' membership, 1 year'`,
      amountCents: membershipPayments.amountCents,
      currency: membershipPayments.currency,
      paidAt: membershipPayments.completedAt,
      cardBrand: membershipPayments.cardBrand,
      cardLast4: membershipPayments.cardLast4,
    })
    .from(membershipPayments)
    .where(
      and(
        eq(membershipPayments.userId, memberId),
        isNotNull(membershipPayments.receiptNumber),
        id === undefined ? undefined : eq(membershipPayments.id, id),
      ),
    );
  return rows.flatMap(({ number, paidAt, ...row }) =>
    number === null || paidAt === null ? [] : [{ ...row, number, paidAt, kind: 'membership' }],
  );
};

/** What a shop receipt says was bought: '2 × Soft manual toothbrush, 300 points used'. */
export function orderDescription(quantity: number, productName: string, pointsUsed: number) {
  const item = `${String(quantity)} × ${productName}`;
  return pointsUsed === 0 ? item : `${item}, ${pointsUsed.toLocaleString('en-US')} points used`;
}

/** Paid shop orders: the amount is what the card was charged, after the points. */
const orderReceipts: ReceiptSource = async (db, memberId, id) => {
  const rows = await db
    .select({
      id: shopOrders.id,
      number: shopOrders.receiptNumber,
      quantity: shopOrders.quantity,
      productName: shopOrders.productName,
      pointsUsed: shopOrders.pointsUsed,
      amountCents: shopOrders.amountCents,
      // Orders store Stripe's lower-case code; receipts give ISO 4217's.
      currency: sql<string>`upper(${shopOrders.currency})`,
      paidAt: shopOrders.paidAt,
      cardBrand: shopOrders.cardBrand,
      cardLast4: shopOrders.cardLast4,
    })
    .from(shopOrders)
    .where(
      and(
        eq(shopOrders.userId, memberId),
        isNotNull(shopOrders.receiptNumber),
        id === undefined ? undefined : eq(shopOrders.id, id),
      ),
    );
  return rows.flatMap(({ number, paidAt, quantity, productName, pointsUsed, ...row }) =>
    number === null || paidAt === null
      ? []
      : [
          {
            ...row,
            number,
            paidAt,
            kind: 'order',
            description: orderDescription(quantity, productName, pointsUsed),
          },
        ],
  );
};

const sources: readonly ReceiptSource[] = [membershipReceipts, orderReceipts];

/** Who a receipt is made out to. */
export interface ReceiptHolder {
  username: string;
  email: string;
}

/** Receipts of every kind (docs/product/receipts.md). */
export class ReceiptsRepository {
  constructor(private readonly db: Database) {}

  /** The member's receipts, newest first. */
  async list(memberId: string): Promise<StoredReceipt[]> {
    const all = (await Promise.all(sources.map((source) => source(this.db, memberId)))).flat();
    return all.sort(
      (a, b) => b.paidAt.getTime() - a.paidAt.getTime() || b.number.localeCompare(a.number),
    );
  }

  /** One receipt of the member's. */
  async find(memberId: string, id: string): Promise<StoredReceipt | undefined> {
    const found = await Promise.all(sources.map((source) => source(this.db, memberId, id)));
    return found.flat()[0];
  }

  /** The member, while the account is active. */
  async activeHolder(memberId: string): Promise<ReceiptHolder | undefined> {
    const [row] = await this.db
      .select({ username: users.username, email: users.email })
      .from(users)
      .where(and(eq(users.id, memberId), isNull(users.deactivatedAt)));
    return row;
  }
}

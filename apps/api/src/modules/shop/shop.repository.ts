import { and, desc, eq, lte } from 'drizzle-orm';
import type { Database } from '#api/db/client';
import { shopOrders, supplierPages, users, type ShopOrderRow } from '#api/db/schema';
import type { PaymentCard } from '#api/adapters/payments/payment-provider';
import { recordPaymentEvent } from '#api/db/payment-events';
import { nextReceiptNumber } from '#api/db/receipt-numbers';
import { PointsLedger } from '#api/db/points-ledger';

/** A member sees this many of their newest orders; the shop is an occasional purchase. */
export const orderListLimit = 100;

export type NewOrder = Omit<
  ShopOrderRow,
  | 'status'
  | 'providerSessionId'
  | 'checkoutUrl'
  | 'receiptNumber'
  | 'cardBrand'
  | 'cardLast4'
  | 'paidAt'
  | 'cancelledAt'
>;

/** Orders, and the points they take and give back, in the same transactions. */
export class ShopRepository {
  readonly points: PointsLedger;

  constructor(private readonly db: Database) {
    this.points = new PointsLedger(db);
  }

  transaction<T>(work: (repository: ShopRepository) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => work(new ShopRepository(tx)));
  }

  async product(supplierId: string, productId: string) {
    const [page] = await this.db
      .select({ products: supplierPages.products })
      .from(supplierPages)
      .where(eq(supplierPages.id, supplierId));
    return page?.products.find((entry) => entry.id === productId);
  }

  async activeMemberEmail(userId: string): Promise<string | undefined> {
    const [row] = await this.db
      .select({ email: users.email, deactivatedAt: users.deactivatedAt })
      .from(users)
      .where(eq(users.id, userId));
    return row?.deactivatedAt === null ? row.email : undefined;
  }

  async insertOrder(order: NewOrder): Promise<void> {
    await this.db.insert(shopOrders).values(order);
  }

  async setCheckout(id: string, sessionId: string | null, url: string): Promise<void> {
    await this.db
      .update(shopOrders)
      .set({ providerSessionId: sessionId, checkoutUrl: url })
      .where(eq(shopOrders.id, id));
  }

  /** The member's order; another member's is undefined, as if it did not exist. */
  async findOwn(userId: string, id: string): Promise<ShopOrderRow | undefined> {
    const [row] = await this.db
      .select()
      .from(shopOrders)
      .where(and(eq(shopOrders.id, id), eq(shopOrders.userId, userId)));
    return row;
  }

  async find(id: string): Promise<ShopOrderRow | undefined> {
    const [row] = await this.db.select().from(shopOrders).where(eq(shopOrders.id, id));
    return row;
  }

  listOwn(userId: string): Promise<ShopOrderRow[]> {
    return this.db
      .select()
      .from(shopOrders)
      .where(eq(shopOrders.userId, userId))
      .orderBy(desc(shopOrders.createdAt), desc(shopOrders.id))
      .limit(orderListLimit);
  }

  /** The member's orders still pending since before `before`: their checkout can no longer
   *  be paid. */
  async stalePending(userId: string, before: Date): Promise<string[]> {
    const rows = await this.db
      .select({ id: shopOrders.id })
      .from(shopOrders)
      .where(
        and(
          eq(shopOrders.userId, userId),
          eq(shopOrders.status, 'pending'),
          lte(shopOrders.createdAt, before),
        ),
      );
    return rows.map((row) => row.id);
  }

  async lockOrder(id: string): Promise<ShopOrderRow | undefined> {
    const [row] = await this.db
      .select()
      .from(shopOrders)
      .where(eq(shopOrders.id, id))
      .for('update');
    return row;
  }

  /** Paid: the card, and the next receipt number in the same statement
   *  (docs/decisions/receipts.md). */
  async markPaid(id: string, at: Date, card: PaymentCard | null): Promise<void> {
    await this.db
      .update(shopOrders)
      .set({
        status: 'paid',
        paidAt: at,
        receiptNumber: nextReceiptNumber(at),
        cardBrand: card?.brand ?? null,
        cardLast4: card?.last4 ?? null,
      })
      .where(eq(shopOrders.id, id));
  }

  async markCancelled(id: string, at: Date): Promise<void> {
    await this.db
      .update(shopOrders)
      .set({ status: 'cancelled', cancelledAt: at })
      .where(eq(shopOrders.id, id));
  }

  recordEvent(eventId: string, type: string, at: Date): Promise<boolean> {
    return recordPaymentEvent(this.db, eventId, type, at);
  }
}

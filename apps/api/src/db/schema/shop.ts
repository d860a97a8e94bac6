import {
  bigint,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { timestamptz } from './columns';
import type { ShippingAddress } from '@dental/contracts/shop';
import { customerLevel, users } from './account';

/** Where an order is shipped: the request's fields as checked (trimmed), stored as given. */
export type OrderShipping = ShippingAddress;

/**
 * An order from a supplier page, paid by card with points taken off
 * (docs/decisions/points-shop.md). `status`: pending → paid or cancelled (the checkout failed,
 * expired or was cancelled; its points were returned). What a receipt shows later is kept here.
 */
export const shopOrders = pgTable(
  'shop_orders',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The supplier page; no foreign key, so reloaded content never removes an order. */
    supplierId: uuid('supplier_id').notNull(),
    productId: text('product_id').notNull(),
    /** The product's name and price when ordered. */
    productName: text('product_name').notNull(),
    unitPriceCents: integer('unit_price_cents').notNull(),
    quantity: integer('quantity').notNull(),
    subtotalCents: integer('subtotal_cents').notNull(),
    pointsUsed: integer('points_used').notNull(),
    /** What the card is charged: subtotal less the points. */
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency', { enum: ['usd'] }).notNull(),
    status: text('status', { enum: ['pending', 'paid', 'cancelled'] })
      .notNull()
      .default('pending'),
    shipping: jsonb('shipping').$type<OrderShipping>().notNull(),
    /** 'stripe' or 'test' (the built-in test-mode checkout). */
    provider: text('provider', { enum: ['stripe', 'test'] }).notNull(),
    /** The Checkout Session id (Stripe); null in test mode. */
    providerSessionId: text('provider_session_id'),
    /** Where the checkout route sends the browser; null until the provider answered. */
    checkoutUrl: text('checkout_url'),
    /** Random per-order token the test-mode checkout forms must post back. */
    formToken: text('form_token').notNull(),
    /** Given from the `receipt_numbers` sequence when the order is paid; null until then
     *  (docs/decisions/receipts.md). */
    receiptNumber: text('receipt_number'),
    /** Filled from the provider's payment for receipts; null until then, or when it was not
     *  paid by card. */
    cardBrand: text('card_brand'),
    cardLast4: text('card_last4'),
    createdAt: timestamptz('created_at').notNull(),
    paidAt: timestamptz('paid_at'),
    cancelledAt: timestamptz('cancelled_at'),
  },
  (table) => [
    index('shop_orders_user_id_created_at_idx').on(table.userId, table.createdAt),
    index('shop_orders_pending_created_at_idx').on(table.status, table.createdAt),
    uniqueIndex('shop_orders_receipt_number_idx').on(table.receiptNumber),
  ],
);

/**
 * Every change of a member's `users.points`, written in the same transaction as the change:
 * granted (+, a plan's bonus), spent (−, held by an order at order time), returned (+, the
 * order's payment failed or expired) and expired (−, the end of the year they were granted).
 */
export const pointsLedger = pgTable(
  'points_ledger',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Orders rows written in one transaction at the same moment. */
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity().notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['granted', 'spent', 'returned', 'expired'] }).notNull(),
    /** Signed change of `users.points`. */
    points: integer('points').notNull(),
    /** `users.points` after the change. */
    balance: integer('balance').notNull(),
    /** The plan whose bonus a grant is. */
    plan: customerLevel('plan'),
    orderId: uuid('order_id').references(() => shopOrders.id, { onDelete: 'cascade' }),
    at: timestamptz('at').notNull(),
  },
  (table) => [index('points_ledger_user_id_seq_idx').on(table.userId, table.seq)],
);

export type ShopOrderRow = typeof shopOrders.$inferSelect;
export type PointsLedgerRow = typeof pointsLedger.$inferSelect;

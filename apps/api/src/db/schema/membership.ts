import { index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns';
import { customerLevel, users } from './account';

/**
 * One attempt to buy a plan (docs/product/membership.md#checkout). `status`: pending → paid,
 * cancelled or superseded (paid for a plan at or below the level reached meanwhile; sales are
 * final).
 */
export const membershipPayments = pgTable(
  'membership_payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    plan: customerLevel('plan').notNull(),
    /** The plan's price in US cents when it was chosen. */
    amountCents: integer('amount_cents').notNull(),
    status: text('status', { enum: ['pending', 'paid', 'cancelled', 'superseded'] })
      .notNull()
      .default('pending'),
    /** 'stripe' or 'test' (the built-in test-mode checkout). */
    provider: text('provider', { enum: ['stripe', 'test'] }).notNull(),
    /** The Checkout Session id (Stripe); null in test mode. */
    providerSessionId: text('provider_session_id'),
    /** Where the checkout route sends the browser. */
    checkoutUrl: text('checkout_url').notNull(),
    /** Random per-payment token the test-mode checkout forms must post back. */
    formToken: text('form_token').notNull(),
    createdAt: timestamptz('created_at').notNull(),
    completedAt: timestamptz('completed_at'),
    /** ISO 4217 code of `amountCents`. */
    currency: text('currency').notNull().default('USD'),
    /** Given when the money was taken (paid or superseded), from `receipt_numbers`
     *  (docs/decisions/receipts.md); null for pending and cancelled payments. */
    receiptNumber: text('receipt_number'),
    /** The card as the provider reports it; null when it paid by other means. */
    cardBrand: text('card_brand'),
    cardLast4: text('card_last4'),
  },
  (table) => [
    index('membership_payments_user_id_idx').on(table.userId),
    uniqueIndex('membership_payments_receipt_number_idx').on(table.receiptNumber),
  ],
);

/** The paid membership of a member: valid for one year from payment, then back to Silver. */
export const memberships = pgTable(
  'memberships',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    plan: customerLevel('plan').notNull(),
    startedAt: timestamptz('started_at').notNull(),
    expiresAt: timestamptz('expires_at').notNull(),
    /** Set once the "ends in 14 days" e-mail went out for this term. */
    reminderSentAt: timestamptz('reminder_sent_at'),
  },
  (table) => [index('memberships_expires_at_idx').on(table.expiresAt)],
);

/** Payment provider events already handled: a redelivered event id is acknowledged and ignored. */
export const paymentEvents = pgTable('payment_events', {
  eventId: text('event_id').primaryKey(),
  type: text('type').notNull(),
  processedAt: timestamptz('processed_at').notNull(),
});

export type MembershipPaymentRow = typeof membershipPayments.$inferSelect;

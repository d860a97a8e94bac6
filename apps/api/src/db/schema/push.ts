import { sql } from 'drizzle-orm';
import { index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { sessions, users } from './account';
import { outboxColumns, timestamptz } from './columns';

/**
 * A browser's Web Push subscription, made in one signed-in session (docs/decisions/web-push.md):
 * it ends with that session, so a device that signed out gets nothing more.
 */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    /** The push service's URL for this browser; it is the subscription's identity. */
    endpoint: text('endpoint').notNull().unique(),
    /** The browser's P-256 public key and auth secret (RFC 8291), base64url. */
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    createdAt: timestamptz('created_at').notNull(),
  },
  (table) => [
    index('push_subscriptions_user_id_idx').on(table.userId),
    // One per session: a browser that subscribes again replaces its earlier subscription.
    uniqueIndex('push_subscriptions_session_id_key').on(table.sessionId),
  ],
);

/**
 * One push to one subscription: the outbox its job works from, like reminders. `source` names
 * what it tells of (a reminder, a reply, a review, a report); the unique key makes a trigger that
 * runs twice push once. The text carries no health details; the title, the company's name, is
 * added when it is sent.
 */
export const pushDeliveries = pgTable(
  'push_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Null once the subscription is gone (ended or refused by its push service); the row stays
     *  as the record of the delivery. */
    subscriptionId: uuid('subscription_id').references(() => pushSubscriptions.id, {
      onDelete: 'set null',
    }),
    source: text('source').notNull(),
    body: text('body').notNull(),
    url: text('url').notNull(),
    /** Its `outcome` is the push service's status, never the text. */
    ...outboxColumns(),
  },
  (table) => [
    uniqueIndex('push_deliveries_subscription_source_key').on(table.subscriptionId, table.source),
    index('push_deliveries_unqueued_idx')
      .on(table.createdAt)
      .where(sql`${table.status} = 'pending' and ${table.queuedAt} is null`),
  ],
);

export type PushSubscriptionRow = typeof pushSubscriptions.$inferSelect;

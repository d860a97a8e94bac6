import { and, asc, eq, inArray, isNull, lte, sql } from 'drizzle-orm';
import type { Database } from '#api/db/client';
import type { OutboxOutcome, OutboxRows } from '#api/jobs/outbox';
import type { PushNotice } from '#api/jobs/push-outbox';
import { pushDeliveries, pushSubscriptions, type PushSubscriptionRow } from '#api/db/schema';

/** What a worker needs to send one push: the subscription (null once it ended) and the text. */
export interface PushDelivery {
  id: string;
  subscription: { id: string; endpoint: string; p256dh: string; auth: string } | null;
  notice: PushNotice;
}

/** Push subscriptions and the push outbox; every query about a subscription takes its member's
 *  id, so another member's is never found. */
export class PushRepository implements OutboxRows<PushDelivery> {
  constructor(private readonly db: Database) {}

  transaction<T>(work: (repository: PushRepository) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => work(new PushRepository(tx)));
  }

  /**
   * Stores the browser's subscription for this session. The session's earlier subscription (the
   * browser subscribed again) is replaced, and an endpoint known from an earlier session (the
   * same browser, signed in again) moves to this one.
   */
  async subscribe(
    subscription: Pick<
      PushSubscriptionRow,
      'userId' | 'sessionId' | 'endpoint' | 'p256dh' | 'auth'
    >,
    now: Date,
  ): Promise<PushSubscriptionRow> {
    return this.transaction(async (tx) => {
      await tx.db
        .delete(pushSubscriptions)
        .where(eq(pushSubscriptions.sessionId, subscription.sessionId));
      const [row] = await tx.db
        .insert(pushSubscriptions)
        .values({ ...subscription, createdAt: now })
        .onConflictDoUpdate({
          target: pushSubscriptions.endpoint,
          set: { ...subscription, createdAt: now },
        })
        .returning();
      if (row === undefined) throw new Error('The subscription was not stored.');
      return row;
    });
  }

  /** Deletes the member's subscription; false when they have none with this id. */
  async unsubscribe(userId: string, id: string): Promise<boolean> {
    const deleted = await this.db
      .delete(pushSubscriptions)
      .where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.id, id)))
      .returning({ id: pushSubscriptions.id });
    return deleted.length === 1;
  }

  /** The push service no longer knows the subscription (404, 410). */
  async forget(subscriptionId: string): Promise<void> {
    await this.db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, subscriptionId));
  }

  /** Locks the pending push unless another transaction holds it (SKIP LOCKED), as reminders do. */
  async lockPending(id: string): Promise<PushDelivery | undefined> {
    const [row] = await this.db
      .select({
        id: pushDeliveries.id,
        body: pushDeliveries.body,
        url: pushDeliveries.url,
        subscriptionId: pushSubscriptions.id,
        endpoint: pushSubscriptions.endpoint,
        p256dh: pushSubscriptions.p256dh,
        auth: pushSubscriptions.auth,
      })
      .from(pushDeliveries)
      .leftJoin(pushSubscriptions, eq(pushSubscriptions.id, pushDeliveries.subscriptionId))
      .where(and(eq(pushDeliveries.id, id), eq(pushDeliveries.status, 'pending')))
      .for('update', { of: pushDeliveries, skipLocked: true });
    if (row === undefined) return undefined;
    const { subscriptionId, endpoint, p256dh, auth, body, url } = row;
    return {
      id: row.id,
      subscription:
        subscriptionId === null || endpoint === null || p256dh === null || auth === null
          ? null
          : { id: subscriptionId, endpoint, p256dh, auth },
      notice: { body, url },
    };
  }

  async isPending(id: string): Promise<boolean> {
    const [row] = await this.db
      .select({ status: pushDeliveries.status })
      .from(pushDeliveries)
      .where(eq(pushDeliveries.id, id));
    return row?.status === 'pending';
  }

  async finish(id: string, outcome: OutboxOutcome, detail: string | null, now: Date) {
    await this.db
      .update(pushDeliveries)
      .set({
        status: outcome,
        outcome: detail,
        attempts: sql`${pushDeliveries.attempts} + 1`,
        ...(outcome === 'sent' ? { sentAt: now } : {}),
      })
      .where(and(eq(pushDeliveries.id, id), eq(pushDeliveries.status, 'pending')));
  }

  async countFailedAttempt(id: string): Promise<void> {
    await this.db
      .update(pushDeliveries)
      .set({ attempts: sql`${pushDeliveries.attempts} + 1` })
      .where(and(eq(pushDeliveries.id, id), eq(pushDeliveries.status, 'pending')));
  }

  /** Pending pushes whose job was not queued yet: just written, or the process stopped. */
  unqueued(createdBy: Date, limit: number): Promise<{ id: string }[]> {
    return this.db
      .select({ id: pushDeliveries.id })
      .from(pushDeliveries)
      .where(
        and(
          eq(pushDeliveries.status, 'pending'),
          isNull(pushDeliveries.queuedAt),
          lte(pushDeliveries.createdAt, createdBy),
        ),
      )
      .orderBy(asc(pushDeliveries.createdAt))
      .limit(limit);
  }

  async markQueued(ids: readonly string[], now: Date): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .update(pushDeliveries)
      .set({ queuedAt: now })
      .where(and(inArray(pushDeliveries.id, [...ids]), isNull(pushDeliveries.queuedAt)));
  }
}

import { PushDeliveryError } from '../adapters/push/web-push-sender';
import { SmsDeliveryError } from '../adapters/sms/sms-sender';

/** How a delivery ended, as its outbox row records it. */
export type OutboxOutcome = 'sent' | 'skipped' | 'failed';

/** The rows of an outbox (reminders, message notices, pushes) as a worker reads and settles them. */
export interface OutboxRows<Delivery> {
  /** Runs `work` in one transaction; the row lock taken in it lasts until it ends. */
  transaction<T>(work: (rows: OutboxRows<Delivery>) => Promise<T>): Promise<T>;
  /** Locks the row while it is pending and no other transaction holds it (SKIP LOCKED). */
  lockPending(id: string): Promise<Delivery | undefined>;
  isPending(id: string): Promise<boolean>;
  /** Records how it ended; only a pending row changes, so an outcome is written once. */
  finish(id: string, outcome: OutboxOutcome, detail: string | null, now: Date): Promise<void>;
  countFailedAttempt(id: string): Promise<void>;
}

/** What a worker reads with an outbox row. */
type DeliveryOf<Rows> = Rows extends OutboxRows<infer Delivery> ? Delivery : never;

/** Raised while another worker holds the row: the job retries and finds it settled. */
export class OutboxBusy extends Error {
  override name = 'OutboxBusy';
}

/**
 * Sends one outbox row unless it was settled, dropped, or another worker holds it
 * (docs/decisions/reminder-delivery.md). The row stays locked while it is sent, so no other
 * worker can send it too; a provider failure rolls back and throws so the queue retries with
 * backoff; on the last attempt, or when retrying cannot help (an SMS or a push the provider
 * refused for good), the row is recorded as failed.
 */
export async function deliverOnce<Rows extends OutboxRows<unknown>>(
  rows: Rows,
  id: string,
  lastAttempt: boolean,
  /** Sends it; `tx` is the rows in the locking transaction, for writes that go with the send. */
  send: (
    delivery: DeliveryOf<Rows>,
    tx: Rows,
  ) => Promise<{ status: 'sent' | 'skipped'; detail: string | null }>,
  now: () => Date,
): Promise<void> {
  try {
    await rows.transaction(async (transactionRows) => {
      // Each repository's transaction hands on a repository of its own class over the transaction.
      const tx = transactionRows as Rows;
      const delivery = await tx.lockPending(id);
      if (delivery === undefined) {
        if (await tx.isPending(id)) throw new OutboxBusy('Another worker is sending this.');
        return;
      }
      const outcome = await send(delivery as DeliveryOf<Rows>, tx);
      await tx.finish(id, outcome.status, outcome.detail, now());
    });
  } catch (error) {
    if (error instanceof OutboxBusy) throw error;
    const refusal = error instanceof SmsDeliveryError || error instanceof PushDeliveryError;
    const retryable = !refusal || error.retryable;
    if (retryable && !lastAttempt) {
      await rows.countFailedAttempt(id);
      throw error;
    }
    // Retrying cannot help, or this was the last try: record it and stop.
    const reason = error instanceof Error ? error.message : String(error);
    await rows.finish(id, 'failed', reason.slice(0, 500), now());
  }
}

/** Where an outbox row's message goes, as its worker reads it with the row. */
export interface OutboxRecipient {
  /** A push goes to the member's subscribed devices (docs/decisions/web-push.md). */
  channel: 'email' | 'sms' | 'push';
  emailConfirmed: boolean;
  phone: string | null;
  deactivated: boolean;
}

/** Why a row is settled as skipped instead of sent, or null to send it: e-mail goes only to a
 *  confirmed address (docs/decisions/email-confirmation.md), SMS only to a number on file. */
export function skipReason(recipient: OutboxRecipient): string | null {
  if (recipient.deactivated) return 'account deactivated';
  if (recipient.channel === 'email' && !recipient.emailConfirmed) {
    return 'e-mail address not confirmed';
  }
  if (recipient.channel === 'sms' && recipient.phone === null) {
    return 'no phone number on the account';
  }
  return null;
}

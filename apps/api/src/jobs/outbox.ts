import { SmsDeliveryError } from '../adapters/sms/sms-sender';

/** How a delivery ended, as its outbox row records it. */
export type OutboxOutcome = 'sent' | 'skipped' | 'failed';

/** The rows of an outbox (reminders, message notices) as a worker reads and settles them. */
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

/** Raised while another worker holds the row: the job retries and finds it settled. */
export class OutboxBusy extends Error {
  override name = 'OutboxBusy';
}

/**
 * Sends one outbox row unless it was settled, dropped, or another worker holds it
 * (docs/decisions/reminder-delivery.md). The row stays locked while it is sent, so no other
 * worker can send it too; a provider failure rolls back and throws so the queue retries with
 * backoff; on the last attempt, or when retrying cannot help (an SMS the provider refused for
 * good), the row is recorded as failed.
 */
export async function deliverOnce<Delivery>(
  rows: OutboxRows<Delivery>,
  id: string,
  lastAttempt: boolean,
  send: (delivery: Delivery) => Promise<{ status: 'sent' | 'skipped'; detail: string | null }>,
  now: () => Date,
): Promise<void> {
  try {
    await rows.transaction(async (tx) => {
      const delivery = await tx.lockPending(id);
      if (delivery === undefined) {
        if (await tx.isPending(id)) throw new OutboxBusy('Another worker is sending this.');
        return;
      }
      const outcome = await send(delivery);
      await tx.finish(id, outcome.status, outcome.detail, now());
    });
  } catch (error) {
    if (error instanceof OutboxBusy) throw error;
    const retryable = !(error instanceof SmsDeliveryError) || error.retryable;
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
  channel: 'email' | 'sms';
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

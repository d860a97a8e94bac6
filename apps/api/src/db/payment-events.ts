import type { Database } from './client';
import { paymentEvents } from './schema';

/** Records a provider event (a plan's or a shop order's); false when it was processed before. */
export async function recordPaymentEvent(
  db: Database,
  eventId: string,
  type: string,
  at: Date,
): Promise<boolean> {
  const inserted = await db
    .insert(paymentEvents)
    .values({ eventId, type, processedAt: at })
    .onConflictDoNothing()
    .returning({ eventId: paymentEvents.eventId });
  return inserted.length > 0;
}

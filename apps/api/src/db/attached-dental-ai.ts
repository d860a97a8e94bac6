import { inArray } from 'drizzle-orm';
import type { Database } from './client';
import { reservationDentalAiResults } from './schema';

/** The Dental AI results attached to each of the bookings, by booking id (none: absent): the
 *  patient's reservation and the clinic console's consultation read them alike. */
export async function attachedDentalAi(
  db: Database,
  reservationIds: readonly string[],
): Promise<Map<string, string[]>> {
  const attached = new Map<string, string[]>();
  if (reservationIds.length === 0) return attached;
  const rows = await db
    .select()
    .from(reservationDentalAiResults)
    .where(inArray(reservationDentalAiResults.reservationId, [...reservationIds]));
  for (const row of rows) {
    attached.set(row.reservationId, [
      ...(attached.get(row.reservationId) ?? []),
      row.dentalAiResultId,
    ]);
  }
  return attached;
}

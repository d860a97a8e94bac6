import { and, asc, count, desc, eq, gt, gte, lte } from 'drizzle-orm';
import type { Database } from '#api/db/client';
import { appointments, complaints, doctors, oralPhotos, reservations } from '#api/db/schema';

/** The reads behind Home's strip of what is next. Every query takes the member's id, so another
 *  member's appointment, consultation, summary or photo is never found. */
export class HomeRepository {
  constructor(private readonly db: Database) {}

  async nextAppointment(userId: string, now: Date) {
    const [row] = await this.db
      .select({
        id: appointments.id,
        appointmentDate: appointments.appointmentDate,
        timeZone: appointments.timeZone,
      })
      .from(appointments)
      .where(and(eq(appointments.userId, userId), gte(appointments.appointmentDate, now)))
      .orderBy(asc(appointments.appointmentDate), asc(appointments.id))
      .limit(1);
    return row;
  }

  async nextReservation(userId: string, now: Date) {
    const [row] = await this.db
      .select({
        id: reservations.id,
        reservationTime: reservations.reservationTime,
        timeZone: reservations.timeZone,
        doctorName: doctors.name,
      })
      .from(reservations)
      .innerJoin(doctors, eq(doctors.id, reservations.doctorId))
      .where(
        and(
          eq(reservations.userId, userId),
          eq(reservations.status, 'booked'),
          gt(reservations.reservationTime, now),
        ),
      )
      .orderBy(asc(reservations.reservationTime), asc(reservations.id))
      .limit(1);
    return row;
  }

  /** The reservation whose doctor's summary was written last, at `since` or after. */
  async latestSummarySince(userId: string, since: Date) {
    const [row] = await this.db
      .select({
        reservationId: reservations.id,
        reservationTime: reservations.reservationTime,
        timeZone: reservations.timeZone,
        doctorName: doctors.name,
      })
      .from(complaints)
      .innerJoin(reservations, eq(reservations.id, complaints.reservationId))
      .innerJoin(doctors, eq(doctors.id, reservations.doctorId))
      .where(
        and(
          eq(reservations.userId, userId),
          eq(reservations.status, 'booked'),
          gte(complaints.createdAt, since),
        ),
      )
      .orderBy(desc(complaints.createdAt), asc(reservations.id))
      .limit(1);
    return row;
  }

  /** How many photos and X-rays were added at `since` or after, and the latest one added. */
  async photosAddedSince(userId: string, since: Date, now: Date) {
    const added = and(
      eq(oralPhotos.userId, userId),
      gte(oralPhotos.createdAt, since),
      lte(oralPhotos.createdAt, now),
    );
    const [latest] = await this.db
      .select({
        id: oralPhotos.id,
        photoType: oralPhotos.photoType,
        shootDate: oralPhotos.shootDate,
      })
      .from(oralPhotos)
      .where(added)
      .orderBy(desc(oralPhotos.createdAt), desc(oralPhotos.id))
      .limit(1);
    if (latest === undefined) return undefined;
    const [total] = await this.db.select({ count: count() }).from(oralPhotos).where(added);
    return { latest, count: total?.count ?? 1 };
  }
}

import { and, asc, desc, eq, inArray, lte, sql, type SQL } from 'drizzle-orm';
import type { ConsultationPeriod, PageRequest } from '@dental/contracts';
import type { Database } from '#api/db/client';
import {
  complaintImages,
  complaints,
  doctors,
  reservationAnswers,
  reservations,
  users,
  type ComplaintImageRow,
} from '#api/db/schema';
import { rowsToFetch } from '#api/lib/pagination';
import { attachedDentalAi } from '#api/db/attached-dental-ai';

/** A booked consultation as the console lists it. */
export interface ConsultationRow {
  id: string;
  reservationTime: Date;
  timeZone: string;
  practitionerId: string;
  practitionerName: string;
  patientId: string;
  patientUsername: string;
  answers: { label: string; answer: string }[];
  dentalAiIds: string[];
  summary: {
    condition: string;
    summary: string;
    returnVisit: string;
    updatedAt: Date;
    images: ComplaintImageRow[];
  } | null;
}

/** The reservation a summary is written for: whose it is and when it took place. */
export interface SummaryTarget {
  id: string;
  patientId: string;
  practitionerId: string;
  reservationTime: Date;
  hasSummary: boolean;
}

/** Booked consultations as staff see them; `practitionerId` narrows every query to one doctor's
 *  (a practitioner), null reads every doctor's (an admin). */
export class ClinicConsultationRepository {
  constructor(private readonly db: Database) {}

  /**
   * One page of a period: today and future by the calendar day in each doctor's own zone,
   * soonest first; history is every consultation whose time has come, latest first.
   */
  page(
    practitionerId: string | null,
    period: ConsultationPeriod,
    now: Date,
    page: PageRequest,
  ): Promise<ConsultationRow[]> {
    const localDay = (instant: SQL | Date) =>
      sql`(${instant}::timestamptz at time zone ${doctors.timeZone})::date`;
    const today = localDay(now);
    const day = localDay(sql`${reservations.reservationTime}`);
    const when = {
      today: sql`${day} = ${today}`,
      future: sql`${day} > ${today}`,
      history: lte(reservations.reservationTime, now),
    }[period];
    return this.select(
      and(practitionerId === null ? undefined : eq(reservations.doctorId, practitionerId), when),
      period === 'history' ? desc(reservations.reservationTime) : asc(reservations.reservationTime),
      page,
    );
  }

  /** One booked consultation, as the list shows it. */
  async one(reservationId: string): Promise<ConsultationRow | undefined> {
    const [row] = await this.select(
      eq(reservations.id, reservationId),
      asc(reservations.reservationTime),
      { limit: 1, offset: 0 },
    );
    return row;
  }

  private async select(
    where: SQL | undefined,
    order: SQL,
    page: PageRequest,
  ): Promise<ConsultationRow[]> {
    const rows = await this.db
      .select({
        id: reservations.id,
        reservationTime: reservations.reservationTime,
        timeZone: reservations.timeZone,
        practitionerId: doctors.id,
        practitionerName: doctors.name,
        patientId: users.id,
        patientUsername: users.username,
        complaintId: complaints.id,
        condition: complaints.condition,
        summary: complaints.summary,
        returnVisit: complaints.returnVisit,
        summaryUpdatedAt: complaints.updatedAt,
      })
      .from(reservations)
      .innerJoin(doctors, eq(doctors.id, reservations.doctorId))
      .innerJoin(users, eq(users.id, reservations.userId))
      .leftJoin(complaints, eq(complaints.reservationId, reservations.id))
      .where(and(eq(reservations.status, 'booked'), where))
      .orderBy(order, asc(reservations.id))
      .limit(rowsToFetch(page))
      .offset(page.offset);
    const answers = await this.answersOf(rows.map((row) => row.id));
    const images = await this.imagesOf(
      rows.flatMap((row) => (row.complaintId === null ? [] : [row.complaintId])),
    );
    const dentalAi = await attachedDentalAi(
      this.db,
      rows.map((row) => row.id),
    );
    return rows.map((row) => ({
      id: row.id,
      reservationTime: row.reservationTime,
      timeZone: row.timeZone,
      practitionerId: row.practitionerId,
      practitionerName: row.practitionerName,
      patientId: row.patientId,
      patientUsername: row.patientUsername,
      answers: answers
        .filter((answer) => answer.reservationId === row.id)
        .map((answer) => ({ label: answer.questionLabel, answer: answer.answer })),
      dentalAiIds: dentalAi.get(row.id) ?? [],
      // A left join: the summary's columns are all present or all null.
      summary:
        row.complaintId === null ||
        row.condition === null ||
        row.summary === null ||
        row.returnVisit === null ||
        row.summaryUpdatedAt === null
          ? null
          : {
              condition: row.condition,
              summary: row.summary,
              returnVisit: row.returnVisit,
              updatedAt: row.summaryUpdatedAt,
              images: images.filter((image) => image.complaintId === row.complaintId),
            },
    }));
  }

  /** A booked consultation this viewer may write the summary of; undefined otherwise. */
  async summaryTarget(
    practitionerId: string | null,
    reservationId: string,
  ): Promise<SummaryTarget | undefined> {
    const [row] = await this.db
      .select({
        id: reservations.id,
        patientId: reservations.userId,
        practitionerId: reservations.doctorId,
        reservationTime: reservations.reservationTime,
        hasSummary: sql<boolean>`${complaints.id} is not null`,
      })
      .from(reservations)
      .leftJoin(complaints, eq(complaints.reservationId, reservations.id))
      .where(
        and(
          eq(reservations.id, reservationId),
          eq(reservations.status, 'booked'),
          practitionerId === null ? undefined : eq(reservations.doctorId, practitionerId),
        ),
      );
    return row;
  }

  private async answersOf(reservationIds: readonly string[]) {
    if (reservationIds.length === 0) return [];
    return this.db
      .select()
      .from(reservationAnswers)
      .where(inArray(reservationAnswers.reservationId, [...reservationIds]))
      .orderBy(asc(reservationAnswers.questionOrder), asc(reservationAnswers.id));
  }

  private async imagesOf(complaintIds: readonly string[]): Promise<ComplaintImageRow[]> {
    if (complaintIds.length === 0) return [];
    return this.db
      .select()
      .from(complaintImages)
      .where(inArray(complaintImages.complaintId, [...complaintIds]))
      .orderBy(asc(complaintImages.position));
  }
}

import { and, asc, count, desc, eq, gt, gte, inArray, isNull, lt, lte } from 'drizzle-orm';
import type { PageRequest } from '@dental/contracts';
import type { Database } from '#api/db/client';
import { rowsToFetch } from '#api/lib/pagination';
import { isForeignKeyViolation, isUniqueViolation } from '#api/db/errors';
import {
  complaintImages,
  complaints,
  consultationForms,
  doctorAvailability,
  doctorTimeOff,
  doctors,
  formQuestions,
  reservationAnswers,
  reservationDentalAiResults,
  reservations,
  users,
  type ComplaintImageRow,
  type ComplaintRow,
  type DoctorRow,
  type FormQuestionRow,
  type ReservationAnswerRow,
  type ReservationRow,
} from '#api/db/schema';
import type { Schedule } from './slots';
import { insertedRow } from '#api/db/inserted-row';
import { attachedDentalAi } from '#api/db/attached-dental-ai';

export interface DoctorWithWindows extends DoctorRow, Schedule {}

export interface ActiveForm {
  id: string;
  questions: FormQuestionRow[];
}

export interface ReservationListRow extends ReservationRow {
  doctorName: string;
  answerIds: string[];
}

export interface ReservationDetailRow extends ReservationListRow {
  answers: ReservationAnswerRow[];
  complaintId: string | null;
  dentalAiIds: string[];
}

export interface ComplaintWithImages extends ComplaintRow {
  images: ComplaintImageRow[];
}

export interface NewReservation {
  userId: string;
  doctorId: string;
  timeZone: string;
  reservationTime: Date;
  answers: { questionId: string; questionLabel: string; questionOrder: number; answer: string }[];
  /** The member's own Dental AI results to show the doctor (checked by the service). */
  dentalAiIds: string[];
}

const reservationColumns = {
  id: reservations.id,
  userId: reservations.userId,
  doctorId: reservations.doctorId,
  timeZone: reservations.timeZone,
  reservationTime: reservations.reservationTime,
  status: reservations.status,
  createdAt: reservations.createdAt,
  cancelledAt: reservations.cancelledAt,
  doctorName: doctors.name,
};

/**
 * The only code that reads or writes consultations. Every patient query takes the patient's id and
 * sees only booked reservations: a cancelled one is gone for the patient
 * (docs/product/consultation.md#cancellation).
 */
export class ConsultationRepository {
  constructor(private readonly db: Database) {}

  /** The doctors patients may book (not removed) by name, each with their schedule. */
  async doctorsWithWindows(): Promise<DoctorWithWindows[]> {
    const rows = await this.db
      .select()
      .from(doctors)
      .where(isNull(doctors.removedAt))
      .orderBy(asc(doctors.name));
    const windows = await this.db.select().from(doctorAvailability);
    const timeOff = await this.db.select().from(doctorTimeOff);
    return rows.map((doctor) => ({
      ...doctor,
      windows: windows.filter((window) => window.doctorId === doctor.id),
      timeOff: timeOff.filter((range) => range.doctorId === doctor.id),
    }));
  }

  /** A doctor patients may book, with their schedule; undefined when unknown or removed. */
  async doctorWithWindows(doctorId: string): Promise<DoctorWithWindows | undefined> {
    const [doctor] = await this.db
      .select()
      .from(doctors)
      .where(and(eq(doctors.id, doctorId), isNull(doctors.removedAt)));
    if (doctor === undefined) return undefined;
    const windows = await this.db
      .select()
      .from(doctorAvailability)
      .where(eq(doctorAvailability.doctorId, doctorId));
    const timeOff = await this.db
      .select()
      .from(doctorTimeOff)
      .where(eq(doctorTimeOff.doctorId, doctorId));
    return { ...doctor, windows, timeOff };
  }

  /** Booked slot starts of the doctors in [from, to), as `${doctorId}|${epoch ms}`. */
  async bookedSlots(doctorIds: readonly string[], from: Date, to: Date): Promise<Set<string>> {
    if (doctorIds.length === 0) return new Set();
    const rows = await this.db
      .select({ doctorId: reservations.doctorId, time: reservations.reservationTime })
      .from(reservations)
      .where(
        and(
          inArray(reservations.doctorId, [...doctorIds]),
          eq(reservations.status, 'booked'),
          gte(reservations.reservationTime, from),
          lt(reservations.reservationTime, to),
        ),
      );
    return new Set(rows.map((row) => `${row.doctorId}|${String(row.time.getTime())}`));
  }

  /** The newest form with its current questions in order; undefined before any form exists. */
  async activeForm(): Promise<ActiveForm | undefined> {
    const [form] = await this.db
      .select({ id: consultationForms.id })
      .from(consultationForms)
      .orderBy(desc(consultationForms.createdAt), desc(consultationForms.id))
      .limit(1);
    if (form === undefined) return undefined;
    const questions = await this.db
      .select()
      .from(formQuestions)
      .where(and(eq(formQuestions.formId, form.id), isNull(formQuestions.archivedAt)))
      .orderBy(asc(formQuestions.position), asc(formQuestions.id));
    return { id: form.id, questions };
  }

  /**
   * The new reservation's id; 'slot-taken' when the slot was booked by someone else first;
   * 'upcoming-limit' when the member already holds `maxUpcoming` upcoming reservations;
   * 'dental-ai-gone' when an attached Dental AI result was deleted since it was checked.
   */
  async insertReservation(
    reservation: NewReservation,
    now: Date,
    maxUpcoming: number,
  ): Promise<{ id: string } | 'slot-taken' | 'upcoming-limit' | 'dental-ai-gone'> {
    try {
      return await this.db.transaction(async (tx) => {
        // The member's row lock makes concurrent bookings of one member count one after another.
        await tx
          .select({ id: users.id })
          .from(users)
          .where(eq(users.id, reservation.userId))
          .for('update');
        const [upcoming] = await tx
          .select({ count: count() })
          .from(reservations)
          .where(
            and(
              eq(reservations.userId, reservation.userId),
              eq(reservations.status, 'booked'),
              gt(reservations.reservationTime, now),
            ),
          );
        if ((upcoming?.count ?? 0) >= maxUpcoming) return 'upcoming-limit';
        const row = insertedRow(
          await tx
            .insert(reservations)
            .values({
              userId: reservation.userId,
              doctorId: reservation.doctorId,
              timeZone: reservation.timeZone,
              reservationTime: reservation.reservationTime,
              createdAt: now,
            })
            .returning({ id: reservations.id }),
        );
        if (reservation.answers.length > 0) {
          await tx
            .insert(reservationAnswers)
            .values(reservation.answers.map((answer) => ({ ...answer, reservationId: row.id })));
        }
        if (reservation.dentalAiIds.length > 0) {
          await tx.insert(reservationDentalAiResults).values(
            reservation.dentalAiIds.map((dentalAiResultId) => ({
              reservationId: row.id,
              dentalAiResultId,
            })),
          );
        }
        return { id: row.id };
      });
    } catch (error) {
      if (isUniqueViolation(error)) return 'slot-taken';
      if (isForeignKeyViolation(error)) return 'dental-ai-gone';
      throw error;
    }
  }

  /**
   * The patient's upcoming (ascending) or past (latest first) reservations, at most `limit`. A
   * reservation is upcoming while its time is after `now`
   * (docs/product/consultation.md#reservation-history).
   */
  async listReservations(
    userId: string,
    upcoming: boolean,
    now: Date,
    page: PageRequest,
  ): Promise<ReservationListRow[]> {
    const rows = await this.db
      .select(reservationColumns)
      .from(reservations)
      .innerJoin(doctors, eq(doctors.id, reservations.doctorId))
      .where(
        and(
          eq(reservations.userId, userId),
          eq(reservations.status, 'booked'),
          upcoming ? gt(reservations.reservationTime, now) : lte(reservations.reservationTime, now),
        ),
      )
      .orderBy(
        upcoming ? asc(reservations.reservationTime) : desc(reservations.reservationTime),
        asc(reservations.id),
      )
      .limit(rowsToFetch(page))
      .offset(page.offset);
    const answers = await this.answersOf(rows.map((row) => row.id));
    return rows.map((row) => ({
      ...row,
      answerIds: answers.filter((a) => a.reservationId === row.id).map((a) => a.id),
    }));
  }

  async findReservation(userId: string, id: string): Promise<ReservationDetailRow | undefined> {
    const [row] = await this.db
      .select(reservationColumns)
      .from(reservations)
      .innerJoin(doctors, eq(doctors.id, reservations.doctorId))
      .where(
        and(
          eq(reservations.id, id),
          eq(reservations.userId, userId),
          eq(reservations.status, 'booked'),
        ),
      );
    if (row === undefined) return undefined;
    const answers = await this.answersOf([row.id]);
    const [complaint] = await this.db
      .select({ id: complaints.id })
      .from(complaints)
      .where(eq(complaints.reservationId, row.id));
    return {
      ...row,
      answers,
      answerIds: answers.map((answer) => answer.id),
      complaintId: complaint?.id ?? null,
      dentalAiIds: (await attachedDentalAi(this.db, [row.id])).get(row.id) ?? [],
    };
  }

  async findAnswer(userId: string, answerId: string): Promise<ReservationAnswerRow | undefined> {
    const [row] = await this.db
      .select({
        id: reservationAnswers.id,
        reservationId: reservationAnswers.reservationId,
        questionId: reservationAnswers.questionId,
        questionLabel: reservationAnswers.questionLabel,
        questionOrder: reservationAnswers.questionOrder,
        answer: reservationAnswers.answer,
      })
      .from(reservationAnswers)
      .innerJoin(reservations, eq(reservations.id, reservationAnswers.reservationId))
      .where(
        and(
          eq(reservationAnswers.id, answerId),
          eq(reservations.userId, userId),
          eq(reservations.status, 'booked'),
        ),
      );
    return row;
  }

  async findComplaint(
    userId: string,
    complaintId: string,
  ): Promise<ComplaintWithImages | undefined> {
    const [row] = await this.db
      .select({
        id: complaints.id,
        reservationId: complaints.reservationId,
        condition: complaints.condition,
        summary: complaints.summary,
        returnVisit: complaints.returnVisit,
        createdAt: complaints.createdAt,
        updatedAt: complaints.updatedAt,
      })
      .from(complaints)
      .innerJoin(reservations, eq(reservations.id, complaints.reservationId))
      .where(
        and(
          eq(complaints.id, complaintId),
          eq(reservations.userId, userId),
          eq(reservations.status, 'booked'),
        ),
      );
    if (row === undefined) return undefined;
    const images = await this.db
      .select()
      .from(complaintImages)
      .where(eq(complaintImages.complaintId, row.id))
      .orderBy(asc(complaintImages.position));
    return { ...row, images };
  }

  /**
   * Cancels the patient's reservation if it is still upcoming. Answers what happened:
   * 'cancelled', 'past' (it exists but its time has come) or 'missing'.
   */
  async cancel(userId: string, id: string, now: Date): Promise<'cancelled' | 'past' | 'missing'> {
    const mine = and(
      eq(reservations.id, id),
      eq(reservations.userId, userId),
      eq(reservations.status, 'booked'),
    );
    // One conditional update: a concurrent cancel or the clock passing cannot slip in between.
    const updated = await this.db
      .update(reservations)
      .set({ status: 'cancelled', cancelledAt: now })
      .where(and(mine, gt(reservations.reservationTime, now)))
      .returning({ id: reservations.id });
    if (updated.length > 0) return 'cancelled';
    const [existing] = await this.db.select({ id: reservations.id }).from(reservations).where(mine);
    return existing === undefined ? 'missing' : 'past';
  }

  /** Where the patient's booking confirmations go. */
  async emailOf(userId: string): Promise<string | undefined> {
    const [row] = await this.db
      .select({ email: users.email })
      .from(users)
      .where(eq(users.id, userId));
    return row?.email;
  }

  /** Whether the member attached the Dental AI result to a booking that stands: what opens its
   *  image to the practice's staff (staffMayOpen). */
  async isAttached(memberId: string, dentalAiResultId: string): Promise<boolean> {
    const [row] = await this.db
      .select({ id: reservations.id })
      .from(reservationDentalAiResults)
      .innerJoin(reservations, eq(reservations.id, reservationDentalAiResults.reservationId))
      .where(
        and(
          eq(reservationDentalAiResults.dentalAiResultId, dentalAiResultId),
          eq(reservations.userId, memberId),
          eq(reservations.status, 'booked'),
        ),
      )
      .limit(1);
    return row !== undefined;
  }

  private async answersOf(reservationIds: readonly string[]): Promise<ReservationAnswerRow[]> {
    if (reservationIds.length === 0) return [];
    return this.db
      .select()
      .from(reservationAnswers)
      .where(inArray(reservationAnswers.reservationId, [...reservationIds]))
      .orderBy(asc(reservationAnswers.questionOrder), asc(reservationAnswers.id));
  }
}

import { and, asc, desc, eq, gt, isNull, lte, max, sql } from 'drizzle-orm';
import type { Database } from '#api/db/client';
import { isUniqueViolation } from '#api/db/errors';
import {
  complaintImages,
  complaints,
  consultationForms,
  doctorAvailability,
  doctors,
  formQuestions,
  reservations,
  users,
  type ComplaintImageRow,
  type DoctorRow,
  type FormQuestionRow,
} from '#api/db/schema';
import type { WeeklyWindow } from './slots';
import { insertedRow } from '#api/db/inserted-row';

export interface ClinicReservationRow {
  id: string;
  email: string;
  doctorName: string;
  timeZone: string;
  reservationTime: Date;
  hasSummary: boolean;
}

export interface NewComplaintImage {
  blobKey: string;
  contentType: string;
  fileName: string;
}

/** What clinic staff change through the clinic command; no patient-facing query lives here. */
export class ClinicRepository {
  constructor(private readonly db: Database) {}

  transaction<T>(work: (repository: ClinicRepository) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => work(new ClinicRepository(tx)));
  }

  async countDoctors(): Promise<number> {
    const [row] = await this.db.select({ count: sql<number>`count(*)::int` }).from(doctors);
    return row?.count ?? 0;
  }

  /** The new doctor, or null when one of that name exists. */
  async insertDoctor(name: string, timeZone: string): Promise<DoctorRow | null> {
    try {
      const [row] = await this.db.insert(doctors).values({ name, timeZone }).returning();
      return row ?? null;
    } catch (error) {
      if (isUniqueViolation(error)) return null;
      throw error;
    }
  }

  async findDoctorByName(name: string): Promise<DoctorRow | undefined> {
    const [row] = await this.db
      .select()
      .from(doctors)
      .where(sql`lower(${doctors.name}) = lower(${name})`);
    return row;
  }

  async doctors(): Promise<(DoctorRow & { windows: WeeklyWindow[] })[]> {
    const rows = await this.db.select().from(doctors).orderBy(asc(doctors.name));
    const windows = await this.db
      .select()
      .from(doctorAvailability)
      .orderBy(asc(doctorAvailability.weekday), asc(doctorAvailability.startMinute));
    return rows.map((doctor) => ({
      ...doctor,
      windows: windows.filter((window) => window.doctorId === doctor.id),
    }));
  }

  async addWindow(doctorId: string, window: WeeklyWindow): Promise<void> {
    await this.db.insert(doctorAvailability).values({ doctorId, ...window });
  }

  async clearWindows(doctorId: string): Promise<number> {
    const removed = await this.db
      .delete(doctorAvailability)
      .where(eq(doctorAvailability.doctorId, doctorId))
      .returning({ id: doctorAvailability.id });
    return removed.length;
  }

  /** The newest form's id, creating the first form when there is none. */
  async currentFormId(): Promise<string> {
    const [form] = await this.db
      .select({ id: consultationForms.id })
      .from(consultationForms)
      .orderBy(desc(consultationForms.createdAt), desc(consultationForms.id))
      .limit(1);
    if (form !== undefined) return form.id;
    const created = insertedRow(
      await this.db
        .insert(consultationForms)
        .values({ title: 'Virtual consultation' })
        .returning({ id: consultationForms.id }),
    );
    return created.id;
  }

  async countForms(): Promise<number> {
    const [row] = await this.db
      .select({ count: sql<number>`count(*)::int` })
      .from(consultationForms);
    return row?.count ?? 0;
  }

  async questions(formId: string): Promise<FormQuestionRow[]> {
    return this.db
      .select()
      .from(formQuestions)
      .where(and(eq(formQuestions.formId, formId), isNull(formQuestions.archivedAt)))
      .orderBy(asc(formQuestions.position), asc(formQuestions.id));
  }

  async addQuestion(formId: string, label: string, position?: number): Promise<FormQuestionRow> {
    const [last] = await this.db
      .select({ position: max(formQuestions.position) })
      .from(formQuestions)
      .where(eq(formQuestions.formId, formId));
    const row = insertedRow(
      await this.db
        .insert(formQuestions)
        .values({ formId, label, position: position ?? (last?.position ?? 0) + 1 })
        .returning(),
    );
    return row;
  }

  /** Renumbers the current questions 1..n in the given order of ids. */
  async renumber(orderedIds: readonly string[]): Promise<void> {
    for (const [index, id] of orderedIds.entries()) {
      await this.db
        .update(formQuestions)
        .set({ position: index + 1 })
        .where(eq(formQuestions.id, id));
    }
  }

  async relabelQuestion(id: string, label: string): Promise<boolean> {
    const rows = await this.db
      .update(formQuestions)
      .set({ label })
      .where(and(eq(formQuestions.id, id), isNull(formQuestions.archivedAt)))
      .returning({ id: formQuestions.id });
    return rows.length > 0;
  }

  /** Takes a question off the form; answers given to it keep their label. */
  async archiveQuestion(id: string, now: Date): Promise<boolean> {
    const rows = await this.db
      .update(formQuestions)
      .set({ archivedAt: now })
      .where(and(eq(formQuestions.id, id), isNull(formQuestions.archivedAt)))
      .returning({ id: formQuestions.id });
    return rows.length > 0;
  }

  async findUserIdByEmail(email: string): Promise<string | undefined> {
    const [row] = await this.db
      .select({ id: users.id })
      .from(users)
      .where(sql`lower(${users.email}) = lower(${email})`);
    return row?.id;
  }

  /** A reservation made outside the app; null when the doctor's slot is already booked. */
  async insertReservation(values: {
    userId: string;
    doctorId: string;
    timeZone: string;
    reservationTime: Date;
  }): Promise<string | null> {
    try {
      const [row] = await this.db
        .insert(reservations)
        .values(values)
        .returning({ id: reservations.id });
      return row?.id ?? null;
    } catch (error) {
      if (isUniqueViolation(error)) return null;
      throw error;
    }
  }

  async reservations(options: {
    upcoming: boolean | undefined;
    email: string | undefined;
    now: Date;
    limit: number;
  }): Promise<ClinicReservationRow[]> {
    const timeFilter =
      options.upcoming === undefined
        ? undefined
        : options.upcoming
          ? gt(reservations.reservationTime, options.now)
          : lte(reservations.reservationTime, options.now);
    return this.db
      .select({
        id: reservations.id,
        email: users.email,
        doctorName: doctors.name,
        timeZone: reservations.timeZone,
        reservationTime: reservations.reservationTime,
        hasSummary: sql<boolean>`${complaints.id} is not null`,
      })
      .from(reservations)
      .innerJoin(users, eq(users.id, reservations.userId))
      .innerJoin(doctors, eq(doctors.id, reservations.doctorId))
      .leftJoin(complaints, eq(complaints.reservationId, reservations.id))
      .where(
        and(
          eq(reservations.status, 'booked'),
          timeFilter,
          options.email === undefined
            ? undefined
            : sql`lower(${users.email}) = lower(${options.email})`,
        ),
      )
      .orderBy(desc(reservations.reservationTime), asc(reservations.id))
      .limit(options.limit);
  }

  /** Where the patient of a reservation is told of its summary. */
  async patientEmailOf(reservationId: string): Promise<string | undefined> {
    const [row] = await this.db
      .select({ email: users.email })
      .from(reservations)
      .innerJoin(users, eq(users.id, reservations.userId))
      .where(eq(reservations.id, reservationId));
    return row?.email;
  }

  async findBookedReservation(
    id: string,
  ): Promise<{ id: string; reservationTime: Date } | undefined> {
    const [row] = await this.db
      .select({ id: reservations.id, reservationTime: reservations.reservationTime })
      .from(reservations)
      .where(and(eq(reservations.id, id), eq(reservations.status, 'booked')));
    return row;
  }

  /**
   * Writes the summary of a reservation, replacing an earlier one and its images. Answers the
   * complaint id, whether it is the reservation's first summary, and the blob keys of the images
   * it replaced (to delete after commit).
   */
  async upsertComplaint(
    reservationId: string,
    summary: { condition: string; summary: string; returnVisit: string },
    images: readonly NewComplaintImage[],
    now: Date,
  ): Promise<{ id: string; created: boolean; replacedKeys: string[] }> {
    const row = insertedRow(
      await this.db
        .insert(complaints)
        .values({ reservationId, ...summary, createdAt: now, updatedAt: now })
        .onConflictDoUpdate({
          target: complaints.reservationId,
          set: { ...summary, updatedAt: now },
        })
        // xmax is 0 on a row this statement inserted, set on one it updated: one statement, so
        // two first summaries written at once still count one creation.
        .returning({ id: complaints.id, created: sql<boolean>`(xmax = 0)` }),
    );
    const replaced: ComplaintImageRow[] = await this.db
      .delete(complaintImages)
      .where(eq(complaintImages.complaintId, row.id))
      .returning();
    if (images.length > 0) {
      await this.db
        .insert(complaintImages)
        .values(images.map((image, index) => ({ ...image, complaintId: row.id, position: index })));
    }
    return {
      id: row.id,
      created: row.created,
      replacedKeys: replaced.map((image) => image.blobKey),
    };
  }
}

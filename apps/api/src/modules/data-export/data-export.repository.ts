import { and, asc, desc, eq, gt, gte, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Database } from '#api/db/client';
import { insertedRow } from '#api/db/inserted-row';
import {
  appointments,
  complaintImages,
  complaints,
  dataExports,
  dentalAiResults,
  doctors,
  medicalFiles,
  medicalRecords,
  messageAttachments,
  messages,
  messageThreads,
  oralPhotos,
  photoReviewItems,
  photoReviews,
  reservationAnswers,
  reservations,
  users,
  type AppointmentRow,
  type ComplaintImageRow,
  type ComplaintRow,
  type DataExportRow,
  type DentalAiResultRow,
  type MedicalFileRow,
  type MedicalRecordRow,
  type MessageAttachmentRow,
  type MessageRow,
  type MessageThreadRow,
  type OralPhotoRow,
  type PhotoReviewRow,
  type ReservationAnswerRow,
  type ReservationRow,
  type UserRow,
} from '#api/db/schema';

/** A past or booked virtual consultation with everything the member may see of it. */
export interface ExportedConsultation {
  reservation: ReservationRow;
  /** The doctor, with their staff account if any (the same person reviews photos). */
  doctor: { id: string; name: string; userId: string | null; slotMinutes: number };
  answers: ReservationAnswerRow[];
  summary: ComplaintRow | undefined;
  summaryImages: ComplaintImageRow[];
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Everything a member's archive holds, read in one transaction so that it is one moment's view. */
/** A review asked of a dentist, with the photos it is about (docs/decisions/photo-reviews.md). */
export interface ExportedReview extends PhotoReviewRow {
  photoIds: string[];
}

/** A conversation with the practice: its messages, oldest first, each with what it attached
 *  (docs/decisions/care-messages.md). */
export interface ExportedThread {
  thread: MessageThreadRow;
  messages: { message: MessageRow; attachments: MessageAttachmentRow[] }[];
}

export interface MemberRecord {
  member: {
    id: string;
    username: string;
    email: string;
    phone: string | null;
    createdAt: Date;
    givenName: string | null;
    familyName: string | null;
    birthDate: string | null;
    sex: UserRow['sex'];
  };
  photos: OralPhotoRow[];
  records: { record: MedicalRecordRow; files: MedicalFileRow[] }[];
  appointments: AppointmentRow[];
  dentalAiResults: DentalAiResultRow[];
  consultations: ExportedConsultation[];
  threads: ExportedThread[];
  reviews: ExportedReview[];
}

const groupBy = <T, K>(rows: readonly T[], keyOf: (row: T) => K): Map<K, T[]> => {
  const groups = new Map<K, T[]>();
  for (const row of rows) groups.set(keyOf(row), [...(groups.get(keyOf(row)) ?? []), row]);
  return groups;
};

/** The only code that reads or writes data exports, and the one read of a member's whole record. */
export class DataExportRepository {
  constructor(private readonly db: Database) {}

  async create(userId: string): Promise<DataExportRow> {
    return insertedRow(await this.db.insert(dataExports).values({ userId }).returning());
  }

  async find(userId: string, id: string): Promise<DataExportRow | undefined> {
    const [row] = await this.db
      .select()
      .from(dataExports)
      .where(and(eq(dataExports.id, id), eq(dataExports.userId, userId)));
    return row;
  }

  async findById(id: string): Promise<DataExportRow | undefined> {
    const [row] = await this.db.select().from(dataExports).where(eq(dataExports.id, id));
    return row;
  }

  /** The member's export still being built, if any: a second request joins it. */
  async findUnfinished(userId: string): Promise<DataExportRow | undefined> {
    const [row] = await this.db
      .select()
      .from(dataExports)
      .where(
        and(eq(dataExports.userId, userId), inArray(dataExports.status, ['queued', 'running'])),
      )
      .orderBy(desc(dataExports.createdAt))
      .limit(1);
    return row;
  }

  /** Exports being built, finished ones whose link still works, and failed ones, newest first. */
  async list(userId: string, now: Date): Promise<DataExportRow[]> {
    return this.db
      .select()
      .from(dataExports)
      .where(
        and(
          eq(dataExports.userId, userId),
          or(isNull(dataExports.expiresAt), gt(dataExports.expiresAt, now)),
        ),
      )
      .orderBy(desc(dataExports.createdAt), desc(dataExports.id))
      .limit(20);
  }

  async update(
    id: string,
    changes: Partial<Omit<DataExportRow, 'id' | 'userId' | 'createdAt'>>,
  ): Promise<DataExportRow | undefined> {
    const [row] = await this.db
      .update(dataExports)
      .set(changes)
      .where(eq(dataExports.id, id))
      .returning();
    return row;
  }

  /**
   * Takes the export for one worker: a queued one, or a running one whose heartbeat stopped
   * before `staleBefore`. Undefined when it is done, failed, or being built by a live worker.
   */
  async claim(id: string, now: Date, staleBefore: Date): Promise<DataExportRow | undefined> {
    const [row] = await this.db
      .update(dataExports)
      .set({
        status: 'running',
        progress: 0,
        heartbeatAt: now,
        attempts: sql`${dataExports.attempts} + 1`,
      })
      .where(
        and(eq(dataExports.id, id), or(eq(dataExports.status, 'queued'), this.stale(staleBefore))),
      )
      .returning();
    return row;
  }

  async beat(id: string, now: Date): Promise<void> {
    await this.db
      .update(dataExports)
      .set({ heartbeatAt: now })
      .where(and(eq(dataExports.id, id), eq(dataExports.status, 'running')));
  }

  /** Running exports whose worker stopped beating before `staleBefore`, queued again; their ids. */
  async requeueStale(staleBefore: Date): Promise<string[]> {
    const rows = await this.db
      .update(dataExports)
      .set({ status: 'queued' })
      .where(this.stale(staleBefore))
      .returning({ id: dataExports.id });
    return rows.map((row) => row.id);
  }

  /** Those of `ids` that a live worker is building now. */
  async liveBuilds(ids: readonly string[], staleBefore: Date): Promise<string[]> {
    const exportIds = ids.filter((id) => uuidPattern.test(id));
    if (exportIds.length === 0) return [];
    const rows = await this.db
      .select({ id: dataExports.id })
      .from(dataExports)
      .where(
        and(
          inArray(dataExports.id, exportIds),
          eq(dataExports.status, 'running'),
          gte(dataExports.heartbeatAt, staleBefore),
        ),
      );
    return rows.map((row) => row.id);
  }

  /** The member's finished exports, whose download links work. */
  async finished(userId: string): Promise<DataExportRow[]> {
    return this.db
      .select()
      .from(dataExports)
      .where(and(eq(dataExports.userId, userId), eq(dataExports.status, 'done')));
  }

  private stale(staleBefore: Date) {
    return and(
      eq(dataExports.status, 'running'),
      or(isNull(dataExports.heartbeatAt), lt(dataExports.heartbeatAt, staleBefore)),
    );
  }

  /** Rows whose link has expired, with their stored archive. */
  async expired(now: Date): Promise<DataExportRow[]> {
    return this.db.select().from(dataExports).where(lte(dataExports.expiresAt, now)).limit(500);
  }

  async delete(id: string): Promise<void> {
    await this.db.delete(dataExports).where(eq(dataExports.id, id));
  }

  /** The member's whole record; undefined for an unknown or deactivated member. */
  async memberRecord(userId: string): Promise<MemberRecord | undefined> {
    return this.db.transaction(async (tx) => {
      const [member] = await tx
        .select({
          id: users.id,
          username: users.username,
          email: users.email,
          phone: users.phone,
          createdAt: users.createdAt,
          givenName: users.givenName,
          familyName: users.familyName,
          birthDate: users.birthDate,
          sex: users.sex,
        })
        .from(users)
        .where(and(eq(users.id, userId), isNull(users.deactivatedAt)));
      if (member === undefined) return undefined;
      // A transaction is one connection: its statements run one after another (pg queues
      // overlapping ones on a client only until pg 9).
      const photos = await tx
        .select()
        .from(oralPhotos)
        .where(eq(oralPhotos.userId, userId))
        .orderBy(asc(oralPhotos.shootDate), asc(oralPhotos.id));
      const records = await tx
        .select()
        .from(medicalRecords)
        .where(eq(medicalRecords.userId, userId))
        .orderBy(asc(medicalRecords.recordDate), asc(medicalRecords.id));
      const files = await tx
        .select()
        .from(medicalFiles)
        .where(eq(medicalFiles.userId, userId))
        .orderBy(asc(medicalFiles.createdAt), asc(medicalFiles.id));
      const dated = await tx
        .select()
        .from(appointments)
        .where(eq(appointments.userId, userId))
        .orderBy(asc(appointments.appointmentDate), asc(appointments.id));
      const results = await tx
        .select()
        .from(dentalAiResults)
        .where(eq(dentalAiResults.userId, userId))
        .orderBy(asc(dentalAiResults.createdAt), asc(dentalAiResults.id));
      const booked = await tx
        .select({
          reservation: reservations,
          doctor: {
            id: doctors.id,
            name: doctors.name,
            userId: doctors.userId,
            slotMinutes: doctors.slotMinutes,
          },
        })
        .from(reservations)
        .innerJoin(doctors, eq(doctors.id, reservations.doctorId))
        .where(eq(reservations.userId, userId))
        .orderBy(asc(reservations.reservationTime), asc(reservations.id));
      const reservationIds = booked.map(({ reservation }) => reservation.id);
      const answers =
        reservationIds.length === 0
          ? []
          : await tx
              .select()
              .from(reservationAnswers)
              .where(inArray(reservationAnswers.reservationId, reservationIds))
              .orderBy(asc(reservationAnswers.questionOrder));
      const summaries =
        reservationIds.length === 0
          ? []
          : await tx
              .select()
              .from(complaints)
              .where(inArray(complaints.reservationId, reservationIds));
      const summaryIds = summaries.map((summary) => summary.id);
      const images =
        summaryIds.length === 0
          ? []
          : await tx
              .select()
              .from(complaintImages)
              .where(inArray(complaintImages.complaintId, summaryIds))
              .orderBy(asc(complaintImages.position));
      const reviews = await tx
        .select()
        .from(photoReviews)
        .where(eq(photoReviews.memberId, userId))
        .orderBy(asc(photoReviews.createdAt), asc(photoReviews.id));
      const reviewItems =
        reviews.length === 0
          ? []
          : await tx
              .select()
              .from(photoReviewItems)
              .where(
                inArray(
                  photoReviewItems.reviewId,
                  reviews.map((review) => review.id),
                ),
              )
              .orderBy(asc(photoReviewItems.position));
      const itemsByReview = groupBy(reviewItems, (item) => item.reviewId);
      const threads = await tx
        .select()
        .from(messageThreads)
        .where(eq(messageThreads.memberId, userId))
        .orderBy(asc(messageThreads.createdAt), asc(messageThreads.id));
      const written =
        threads.length === 0
          ? []
          : await tx
              .select()
              .from(messages)
              .where(
                inArray(
                  messages.threadId,
                  threads.map((thread) => thread.id),
                ),
              )
              .orderBy(asc(messages.createdAt), asc(messages.id));
      const attached = await tx
        .select()
        .from(messageAttachments)
        .where(eq(messageAttachments.memberId, userId))
        .orderBy(asc(messageAttachments.position));
      const messagesByThread = groupBy(written, (message) => message.threadId);
      const attachedByMessage = groupBy(attached, (attachment) => attachment.messageId);
      const filesByRecord = groupBy(files, (file) => file.recordId);
      const answersByReservation = groupBy(answers, (answer) => answer.reservationId);
      const imagesBySummary = groupBy(images, (image) => image.complaintId);
      return {
        member,
        photos,
        records: records.map((record) => ({ record, files: filesByRecord.get(record.id) ?? [] })),
        appointments: dated,
        dentalAiResults: results,
        consultations: booked.map(({ reservation, doctor }) => {
          const summary = summaries.find((row) => row.reservationId === reservation.id);
          return {
            reservation,
            doctor,
            answers: answersByReservation.get(reservation.id) ?? [],
            summary,
            summaryImages: summary === undefined ? [] : (imagesBySummary.get(summary.id) ?? []),
          };
        }),
        threads: threads.map((thread) => ({
          thread,
          messages: (messagesByThread.get(thread.id) ?? []).map((message) => ({
            message,
            attachments: attachedByMessage.get(message.id) ?? [],
          })),
        })),
        reviews: reviews.map((review) => ({
          ...review,
          photoIds: (itemsByReview.get(review.id) ?? []).map((item) => item.photoId),
        })),
      };
    });
  }
}

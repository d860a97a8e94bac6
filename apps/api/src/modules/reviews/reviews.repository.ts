import { and, asc, count, desc, eq, gte, inArray, isNull, sql } from 'drizzle-orm';
import type { Database } from '#api/db/client';
import { insertedRow } from '#api/db/inserted-row';
import {
  dentalAiResults,
  modelTrainingConsents,
  oralPhotos,
  photoReviewItems,
  photoReviews,
  photoReviewUses,
  users,
  type ModelTrainingConsentRow,
  type PhotoReviewRow,
  type StoredReviewFinding,
} from '#api/db/schema';
import { insertNotices } from '../messages/message-notices.repository';

/** A review with its photos in the member's order. */
export interface ReviewWithPhotos extends PhotoReviewRow {
  photoIds: string[];
}

/** A review as the practice lists it: with the patient's name. */
export interface StaffReviewRow extends ReviewWithPhotos {
  patientName: string;
}

/** One image of a consented, answered review, as the data-set command writes it. */
export interface ConsentedImage {
  reviewId: string;
  consentGrantedAt: Date;
  /** The photo the image is, or null for a Dental AI result's image. */
  photoId: string | null;
  blobKey: string;
  imageKind: 'photo' | 'xray';
  findings: StoredReviewFinding[];
}

/** A member who may be shown to staff: an active member, not a staff account. */
const activeMember = and(eq(users.role, 'member'), isNull(users.deactivatedAt));

/** The only code that reads or writes reviews, their uses and the training consent. */
export class ReviewRepository {
  constructor(readonly db: Database) {}

  /** Runs `work` in one transaction; `tx` is handed on to the plan's use check. */
  transaction<T>(work: (repository: ReviewRepository, tx: Database) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => work(new ReviewRepository(tx), tx));
  }

  /** The member's reviews asked since `since`: the uses counted against the plan. */
  async countUsesSince(memberId: string, since: Date): Promise<number> {
    const [row] = await this.db
      .select({ uses: count() })
      .from(photoReviewUses)
      .where(and(eq(photoReviewUses.userId, memberId), gte(photoReviewUses.createdAt, since)));
    return row?.uses ?? 0;
  }

  /** Stores a review, its photos and the use it spends; call inside `transaction`. */
  async insert(
    memberId: string,
    values: { question: string; dentalAiResultId: string | null; photoIds: readonly string[] },
    now: Date,
  ): Promise<string> {
    await this.db.insert(photoReviewUses).values({ userId: memberId, createdAt: now });
    const { id } = insertedRow(
      await this.db
        .insert(photoReviews)
        .values({
          memberId,
          question: values.question,
          dentalAiResultId: values.dentalAiResultId,
          createdAt: now,
        })
        .returning({ id: photoReviews.id }),
    );
    if (values.photoIds.length > 0) {
      await this.db
        .insert(photoReviewItems)
        .values(values.photoIds.map((photoId, position) => ({ reviewId: id, photoId, position })));
    }
    return id;
  }

  /** The member's reviews, newest first. */
  async listForMember(memberId: string): Promise<ReviewWithPhotos[]> {
    const rows = await this.db
      .select()
      .from(photoReviews)
      .where(eq(photoReviews.memberId, memberId))
      .orderBy(desc(photoReviews.createdAt), desc(photoReviews.id));
    return this.withPhotos(rows);
  }

  async findForMember(memberId: string, id: string): Promise<ReviewWithPhotos | undefined> {
    const rows = await this.db
      .select()
      .from(photoReviews)
      .where(and(eq(photoReviews.memberId, memberId), eq(photoReviews.id, id)));
    const [review] = await this.withPhotos(rows);
    return review;
  }

  /** The practice's reviews in a status, oldest first, of active members only. */
  async listForStaff(status: PhotoReviewRow['status'], limit: number): Promise<StaffReviewRow[]> {
    const rows = await this.db
      .select({ review: photoReviews, patientName: users.username })
      .from(photoReviews)
      .innerJoin(users, eq(users.id, photoReviews.memberId))
      .where(and(eq(photoReviews.status, status), activeMember))
      .orderBy(asc(photoReviews.createdAt), asc(photoReviews.id))
      .limit(limit);
    const reviews = await this.withPhotos(rows.map((row) => row.review));
    return reviews.map((review, index) => ({
      ...review,
      patientName: rows[index]?.patientName ?? '',
    }));
  }

  /** A review the practice may see: one an active member asked. */
  async findForStaff(id: string): Promise<StaffReviewRow | undefined> {
    const [row] = await this.db
      .select({ review: photoReviews, patientName: users.username })
      .from(photoReviews)
      .innerJoin(users, eq(users.id, photoReviews.memberId))
      .where(and(eq(photoReviews.id, id), activeMember));
    if (row === undefined) return undefined;
    const [review] = await this.withPhotos([row.review]);
    return review === undefined ? undefined : { ...review, patientName: row.patientName };
  }

  /** The stored image of each of the member's photos named. */
  photoKeys(
    memberId: string,
    photoIds: readonly string[],
  ): Promise<{ id: string; blobKey: string }[]> {
    if (photoIds.length === 0) return Promise.resolve([]);
    return this.db
      .select({ id: oralPhotos.id, blobKey: oralPhotos.blobKey })
      .from(oralPhotos)
      .where(and(eq(oralPhotos.userId, memberId), inArray(oralPhotos.id, [...photoIds])));
  }

  /**
   * Records the answer of a waiting review with the member's notices of it (the outbox);
   * undefined when it is no longer waiting (answered meanwhile by someone else), so two answers
   * at once cannot both land.
   */
  answer(
    memberId: string,
    id: string,
    answer: {
      report: string;
      findings: StoredReviewFinding[];
      reviewerId: string;
      reviewerName: string;
    },
    now: Date,
  ): Promise<{ review: PhotoReviewRow; notices: string[] } | undefined> {
    return this.db.transaction(async (tx) => {
      const [review] = await tx
        .update(photoReviews)
        .set({ ...answer, status: 'answered', answeredAt: now })
        .where(
          and(
            eq(photoReviews.id, id),
            eq(photoReviews.memberId, memberId),
            eq(photoReviews.status, 'waiting'),
          ),
        )
        .returning();
      if (review === undefined) return undefined;
      return { review, notices: await insertNotices(tx, memberId, { reviewId: id }, now) };
    });
  }

  /**
   * Whether the member asked the practice to review this item: a photo or X-ray of a review, or
   * a review's Dental AI result (the care team's file links open it for staff: wired in
   * services.ts).
   */
  async isReviewed(
    memberId: string,
    kind: 'photo' | 'record' | 'dental_ai',
    itemId: string,
  ): Promise<boolean> {
    if (kind === 'record') return false;
    const rows =
      kind === 'photo'
        ? await this.db
            .select({ one: sql`1` })
            .from(photoReviewItems)
            .innerJoin(photoReviews, eq(photoReviews.id, photoReviewItems.reviewId))
            .where(and(eq(photoReviews.memberId, memberId), eq(photoReviewItems.photoId, itemId)))
            .limit(1)
        : await this.db
            .select({ one: sql`1` })
            .from(photoReviews)
            .where(
              and(eq(photoReviews.memberId, memberId), eq(photoReviews.dentalAiResultId, itemId)),
            )
            .limit(1);
    return rows.length > 0;
  }

  // --- Consent that reviewed images may improve the models ---

  async consent(memberId: string): Promise<ModelTrainingConsentRow | undefined> {
    const [row] = await this.db
      .select()
      .from(modelTrainingConsents)
      .where(eq(modelTrainingConsents.memberId, memberId));
    return row;
  }

  /** Gives consent; one already given keeps its time. */
  async grantConsent(memberId: string, now: Date): Promise<ModelTrainingConsentRow> {
    await this.db
      .insert(modelTrainingConsents)
      .values({ memberId, grantedAt: now })
      .onConflictDoNothing();
    const row = await this.consent(memberId);
    if (row === undefined) throw new Error('the consent just given was not found');
    return row;
  }

  async withdrawConsent(memberId: string): Promise<void> {
    await this.db.delete(modelTrainingConsents).where(eq(modelTrainingConsents.memberId, memberId));
  }

  /**
   * Every image of the answered reviews of active members who consent now, with the consent's
   * time: photos by their type, a Dental AI result's image by the kind its model read.
   */
  async consentedImages(): Promise<ConsentedImage[]> {
    const consented = and(eq(photoReviews.status, 'answered'), activeMember);
    const [photos, results] = await Promise.all([
      this.db
        .select({
          reviewId: photoReviews.id,
          consentGrantedAt: modelTrainingConsents.grantedAt,
          photoId: oralPhotos.id,
          blobKey: oralPhotos.blobKey,
          photoType: oralPhotos.photoType,
          findings: photoReviews.findings,
        })
        .from(photoReviews)
        .innerJoin(modelTrainingConsents, eq(modelTrainingConsents.memberId, photoReviews.memberId))
        .innerJoin(users, eq(users.id, photoReviews.memberId))
        .innerJoin(photoReviewItems, eq(photoReviewItems.reviewId, photoReviews.id))
        .innerJoin(
          oralPhotos,
          and(
            eq(oralPhotos.id, photoReviewItems.photoId),
            eq(oralPhotos.userId, photoReviews.memberId),
          ),
        )
        .where(consented)
        .orderBy(
          asc(photoReviews.answeredAt),
          asc(photoReviews.id),
          asc(photoReviewItems.position),
        ),
      this.db
        .select({
          reviewId: photoReviews.id,
          consentGrantedAt: modelTrainingConsents.grantedAt,
          blobKey: dentalAiResults.blobKey,
          imageKind: dentalAiResults.imageKind,
          findings: photoReviews.findings,
        })
        .from(photoReviews)
        .innerJoin(modelTrainingConsents, eq(modelTrainingConsents.memberId, photoReviews.memberId))
        .innerJoin(users, eq(users.id, photoReviews.memberId))
        .innerJoin(dentalAiResults, eq(dentalAiResults.id, photoReviews.dentalAiResultId))
        .where(consented)
        .orderBy(asc(photoReviews.answeredAt), asc(photoReviews.id)),
    ]);
    return [
      ...photos.map(({ photoType, findings, ...photo }) => ({
        ...photo,
        imageKind: photoType === 'X-ray' ? ('xray' as const) : ('photo' as const),
        findings: findings ?? [],
      })),
      ...results.map(({ findings, ...result }) => ({
        ...result,
        photoId: null,
        findings: findings ?? [],
      })),
    ];
  }

  private async withPhotos(rows: PhotoReviewRow[]): Promise<ReviewWithPhotos[]> {
    if (rows.length === 0) return [];
    const items = await this.db
      .select({ reviewId: photoReviewItems.reviewId, photoId: photoReviewItems.photoId })
      .from(photoReviewItems)
      .where(
        inArray(
          photoReviewItems.reviewId,
          rows.map((row) => row.id),
        ),
      )
      .orderBy(asc(photoReviewItems.position));
    return rows.map((row) => ({
      ...row,
      photoIds: items.filter((item) => item.reviewId === row.id).map((item) => item.photoId),
    }));
  }
}

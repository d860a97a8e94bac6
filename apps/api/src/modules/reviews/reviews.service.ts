import {
  clinicReviewListMax,
  reviewAlreadyAnsweredMessage,
  reviewDentalAiNotFoundMessage,
  reviewFindingsMismatchMessage,
  reviewNotFoundMessage,
  reviewPhotoNotFoundMessage,
  type ClinicReview,
  type ClinicReviewList,
  type DentalAiResult,
  type OralPhoto,
  type Review,
  type ReviewAnswer,
  type ReviewFinding,
  type ReviewList,
  type ReviewRequest,
  type ReviewStatus,
  type StaffRole,
  type TrainingConsent,
} from '@dental/contracts';
import type { Clock } from '#api/clock';
import type { StoredReviewFinding } from '#api/db/schema';
import { Conflict, Forbidden, NotFound, UnprocessableEntity } from '#api/domain-errors';
import type { AuditRecorder } from '../audit/audit.service';
import type { PlanLimitsService, YearlyUsage } from '../membership/plan-limits.service';
import { findingErrors, type JudgedImage } from './review-findings';
import type { ReviewRepository, ReviewWithPhotos, StaffReviewRow } from './reviews.repository';

/** Queues the notices of an answer after its commit (the message notices' outbox, wired in
 *  services.ts). */
export interface AnswerNotices {
  afterReply(noticeIds: readonly string[]): Promise<void>;
}

/** The member's photos and Dental AI results as their own modules answer them (wired in
 *  services.ts). */
export interface ReviewedItems {
  photos(memberId: string, ids: readonly string[]): Promise<OralPhoto[]>;
  /** Undefined when the result is not the member's. */
  dentalAiResult(memberId: string, id: string): Promise<DentalAiResult | undefined>;
}

/** File links scoped to one staff member, opened while the review allows (the care team's
 *  SharedFiles, wired in services.ts). */
export interface StaffReviewLinks {
  scope(
    staffId: string,
    items: { photos: OralPhoto[]; records: []; dentalAi: DentalAiResult[] },
  ): { photos: OralPhoto[]; dentalAi: DentalAiResult[] };
}

/** The width and height of a stored image, read from its bytes. */
export type StoredImageSize = (blobKey: string) => Promise<{ width: number; height: number }>;

/** The staff member answering, as the clinic guard names them. */
export interface Reviewer {
  id: string;
  name: string;
  role: StaffRole;
}

export const onlyPractitionersAnswerMessage =
  'Only a practitioner of the practice answers a review.';

/**
 * A dentist's review of the member's photos or a Dental AI result (docs/decisions/
 * photo-reviews.md): the member asks, within the plan's yearly reviews; the practice's staff
 * read the reviews asked of the practice and answer once, each finding checked against the
 * images; the member is told by a notice without health details.
 */
export class ReviewService {
  constructor(
    private readonly repository: ReviewRepository,
    private readonly items: ReviewedItems,
    private readonly staffLinks: StaffReviewLinks,
    private readonly imageSize: StoredImageSize,
    private readonly planLimits: PlanLimitsService,
    private readonly notices: AnswerNotices,
    private readonly audit: AuditRecorder,
    private readonly clock: Clock,
  ) {}

  /** Asks for a review of the member's own photos or Dental AI result, as one of the plan's
   *  yearly reviews; nothing is stored when one is refused. */
  async ask(memberId: string, request: ReviewRequest): Promise<{ id: string }> {
    const photoIds = [...new Set(request.photos ?? [])];
    const dentalAiResultId = request.dental_ai ?? null;
    if (dentalAiResultId !== null) {
      if ((await this.items.dentalAiResult(memberId, dentalAiResultId)) === undefined) {
        throw new NotFound(reviewDentalAiNotFoundMessage);
      }
    } else if ((await this.items.photos(memberId, photoIds)).length !== photoIds.length) {
      throw new NotFound(reviewPhotoNotFoundMessage);
    }
    // A first look without locking, so a member with none left is refused before the
    // transaction; the reservation inside it is what holds under concurrent requests.
    this.planLimits.refuseSpentUses('photoReviewsPerYear', await this.usage(memberId));
    const id = await this.repository.transaction(async (reviews, tx) => {
      const now = this.clock.now();
      await this.planLimits.reserveUse('photoReviewsPerYear', tx, memberId, now, (since) =>
        reviews.countUsesSince(memberId, since),
      );
      return reviews.insert(
        memberId,
        { question: request.question, dentalAiResultId, photoIds },
        now,
      );
    });
    return { id };
  }

  /** The member's reviews, newest first, and the plan's reviews this membership year. */
  async list(memberId: string): Promise<ReviewList> {
    const [rows, uses] = await Promise.all([
      this.repository.listForMember(memberId),
      this.usage(memberId),
    ]);
    return {
      results: await Promise.all(rows.map((row) => this.toReview(row))),
      uses,
    };
  }

  async get(memberId: string, id: string): Promise<Review> {
    const row = await this.repository.findForMember(memberId, id);
    if (row === undefined) throw new NotFound(reviewNotFoundMessage);
    return this.toReview(row);
  }

  /** The practice's reviews in a status, oldest first (the queue the practitioners work); each
   *  one shown (its question) is a read in its patient's chain. */
  async listForStaff(staffId: string, status: ReviewStatus): Promise<ClinicReviewList> {
    const rows = await this.repository.listForStaff(status, clinicReviewListMax);
    for (const row of rows) await this.recordStaffAct(staffId, row, 'read');
    return {
      results: rows.map((row) => ({
        ...this.toSummaryFields(row),
        patient: { id: row.memberId, username: row.patientName },
      })),
    };
  }

  /** One review with its images (links scoped to the staff member), their sizes and the AI's
   *  boxes. 404 for a review no active member asked. */
  async getForStaff(staffId: string, id: string): Promise<ClinicReview> {
    const row = await this.staffReview(id);
    await this.recordStaffAct(staffId, row, 'read');
    return this.toClinicReview(staffId, row);
  }

  /**
   * Answers a waiting review once: the findings must fit its images (else 422 with the fields,
   * and nothing changes); the member's notices are written with it, then queued.
   */
  async answer(reviewer: Reviewer, id: string, answer: ReviewAnswer): Promise<ClinicReview> {
    if (reviewer.role !== 'practitioner') throw new Forbidden(onlyPractitionersAnswerMessage);
    const row = await this.staffReview(id);
    if (row.status !== 'waiting') throw new Conflict(reviewAlreadyAnsweredMessage);
    const images = await this.judgedImages(row);
    const errors = findingErrors(answer.findings, images);
    if (Object.keys(errors).length > 0)
      throw new UnprocessableEntity(reviewFindingsMismatchMessage, errors);
    const answered = await this.repository.answer(
      row.memberId,
      id,
      {
        report: answer.report,
        findings: answer.findings.map(toStoredFinding),
        reviewerId: reviewer.id,
        reviewerName: reviewer.name,
      },
      this.clock.now(),
    );
    if (answered === undefined) throw new Conflict(reviewAlreadyAnsweredMessage);
    await this.recordStaffAct(reviewer.id, row, 'change');
    await this.notices.afterReply(answered.notices);
    return this.toClinicReview(reviewer.id, { ...row, ...answered.review });
  }

  async consent(memberId: string): Promise<TrainingConsent> {
    const row = await this.repository.consent(memberId);
    return { granted_at: row?.grantedAt.toISOString() ?? null };
  }

  /** Allows the member's reviewed images to improve the models; given again, it keeps its time. */
  async grantConsent(memberId: string): Promise<TrainingConsent> {
    const row = await this.repository.grantConsent(memberId, this.clock.now());
    return { granted_at: row.grantedAt.toISOString() };
  }

  /** Withdraws the consent at once: the next data set leaves the member's images out. */
  async withdrawConsent(memberId: string): Promise<void> {
    await this.repository.withdrawConsent(memberId);
  }

  private usage(memberId: string): Promise<YearlyUsage> {
    return this.planLimits.yearlyUsage(
      'photoReviewsPerYear',
      this.repository.db,
      memberId,
      this.clock.now(),
      (since) => this.repository.countUsesSince(memberId, since),
    );
  }

  /** A staff member's read or answer, in the patient's chain with the staff member as actor. */
  private recordStaffAct(staffId: string, row: StaffReviewRow, action: 'read' | 'change') {
    return this.audit.record({
      memberId: row.memberId,
      actor: staffId,
      action,
      resourceType: 'photo_review',
      resourceId: row.id,
      result: 'success',
    });
  }

  private async staffReview(id: string): Promise<StaffReviewRow> {
    const row = await this.repository.findForStaff(id);
    if (row === undefined) throw new NotFound(reviewNotFoundMessage);
    return row;
  }

  /** Each image the findings may be on, with its size and how many AI boxes it has. */
  private async judgedImages(row: ReviewWithPhotos): Promise<JudgedImage[]> {
    if (row.dentalAiResultId !== null) {
      const result = await this.items.dentalAiResult(row.memberId, row.dentalAiResultId);
      if (result === undefined) return [];
      return [
        {
          photo: null,
          width: result.image_width,
          height: result.image_height,
          aiBoxes: result.detection_selection.length,
        },
      ];
    }
    const keys = await this.repository.photoKeys(row.memberId, row.photoIds);
    return Promise.all(
      keys.map(async (photo) => ({
        photo: photo.id,
        ...(await this.imageSize(photo.blobKey)),
        aiBoxes: 0,
      })),
    );
  }

  private async toReview(row: ReviewWithPhotos): Promise<Review> {
    return { ...this.toMemberFields(row), images: await this.memberImages(row) };
  }

  private async toClinicReview(staffId: string, row: StaffReviewRow): Promise<ClinicReview> {
    const patient = { id: row.memberId, username: row.patientName };
    if (row.dentalAiResultId !== null) {
      const result = await this.items.dentalAiResult(row.memberId, row.dentalAiResultId);
      const { dentalAi } = this.staffLinks.scope(staffId, {
        photos: [],
        records: [],
        dentalAi: result === undefined ? [] : [result],
      });
      const images = dentalAi.map((scoped) => ({
        photo: null,
        image_url: scoped.image_url,
        width: scoped.image_width,
        height: scoped.image_height,
        ai_boxes: scoped.detection_selection,
      }));
      return { ...this.toMemberFields(row), patient, images };
    }
    const [photos, keys] = await Promise.all([
      this.items.photos(row.memberId, row.photoIds),
      this.repository.photoKeys(row.memberId, row.photoIds),
    ]);
    const scoped = this.staffLinks.scope(staffId, {
      photos: ordered(photos, row.photoIds),
      records: [],
      dentalAi: [],
    });
    const images = await Promise.all(
      scoped.photos.flatMap((photo) =>
        keys
          .filter((key) => key.id === photo.id)
          .map(async (key) => ({
            photo: photo.id,
            image_url: photo.image_link,
            ...(await this.imageSize(key.blobKey)),
            ai_boxes: [],
          })),
      ),
    );
    return { ...this.toMemberFields(row), patient, images };
  }

  /** The member's own links to the review's images (a deleted photo or result is left out). */
  private async memberImages(row: ReviewWithPhotos): Promise<Review['images']> {
    if (row.dentalAiResultId !== null) {
      const result = await this.items.dentalAiResult(row.memberId, row.dentalAiResultId);
      return result === undefined ? [] : [{ photo: null, image_url: result.image_url }];
    }
    const photos = await this.items.photos(row.memberId, row.photoIds);
    return ordered(photos, row.photoIds).map((photo) => ({
      photo: photo.id,
      image_url: photo.image_link,
    }));
  }

  private toMemberFields(row: ReviewWithPhotos): Omit<Review, 'images'> {
    return {
      ...this.toSummaryFields(row),
      findings: (row.findings ?? []).map(toContractFinding),
    };
  }

  /** A review without its images and findings, as the practice's list shows it. */
  private toSummaryFields(row: ReviewWithPhotos): Omit<Review, 'images' | 'findings'> {
    return {
      id: row.id,
      status: row.status,
      question: row.question,
      photos: row.photoIds,
      dental_ai: row.dentalAiResultId,
      report: row.report,
      reviewer: row.reviewerName === null ? null : { name: row.reviewerName },
      created_at: row.createdAt.toISOString(),
      answered_at: row.answeredAt?.toISOString() ?? null,
    };
  }
}

/** The photos in the review's order. */
function ordered(photos: OralPhoto[], ids: readonly string[]): OralPhoto[] {
  return ids.flatMap((id) => photos.filter((photo) => photo.id === id));
}

function toStoredFinding(finding: ReviewFinding): StoredReviewFinding {
  return {
    photoId: finding.photo,
    box: finding.box,
    label: finding.label,
    verdict: finding.verdict,
    aiBox: finding.ai_box,
  };
}

function toContractFinding(finding: StoredReviewFinding): ReviewFinding {
  return {
    photo: finding.photoId,
    box: finding.box,
    label: finding.label,
    verdict: finding.verdict,
    ai_box: finding.aiBox,
  };
}

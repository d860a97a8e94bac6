import type { Mailer } from '#api/adapters/mailer';
import type { Clock } from '#api/clock';
import type { JobQueue, QueueRules } from '#api/jobs/job-queue';
import { escapeHtml } from '#api/lib/html';
import type { ErrorLogger } from '#api/logger';
import type { ReviewRepository } from './reviews.repository';

/** The pg-boss queue of answer notices; each job's id is its review's id. */
export const reviewNoticeQueue = 'photo-review-notice';

export interface ReviewNoticeJob {
  reviewId: string;
}

export const reviewAnsweredSubject = 'A dentist has answered your question';

export interface ReviewNoticeSettings {
  publicUrl: string;
  companyName: string;
  /** The reminders' retry rules (REMINDER_ATTEMPT_SECONDS and its kin), as message notices. */
  rules: QueueRules;
}

/** Raised while another worker holds the notice: the job retries and finds it sent. */
export class ReviewNoticeBusy extends Error {
  override name = 'ReviewNoticeBusy';
}

const sweepBatch = 500;

/** The e-mail: only that a dentist answered, and where to read it; no question, report, finding
 *  or image travels by e-mail. */
export function reviewAnsweredEmail(
  to: string,
  reviewId: string,
  { publicUrl, companyName }: Pick<ReviewNoticeSettings, 'publicUrl' | 'companyName'>,
) {
  const link = `${publicUrl}/reviews/${reviewId}`;
  const sentence = 'A dentist has answered your request for a review.';
  return {
    to,
    subject: reviewAnsweredSubject,
    text: ['Hello,', '', sentence, '', `Sign in to read it: ${link}`, '', companyName].join('\n'),
    html: [
      '<p>Hello,</p>',
      `<p>${escapeHtml(sentence)}</p>`,
      `<p><a href="${escapeHtml(link)}">Sign in to read it</a>.</p>`,
      `<p>${escapeHtml(companyName)}</p>`,
    ].join('\n'),
  };
}

/**
 * Tells the member once that their review is answered, through the job queue, as reminders are
 * sent (docs/decisions/photo-reviews.md): the answered review is the outbox, its job id is
 * the review's id, and a worker sends while it holds the review's row locked, then stamps
 * `notice_sent_at` in the same transaction.
 */
export class ReviewNotices {
  constructor(
    private readonly repository: ReviewRepository,
    /** Undefined in a process that does not talk to the queue; the sweep queues for it. */
    private readonly jobs: JobQueue | undefined,
    private readonly mailer: Mailer,
    private readonly clock: Clock,
    private readonly settings: ReviewNoticeSettings,
    private readonly log: ErrorLogger,
  ) {}

  get queueRules(): QueueRules {
    return this.settings.rules;
  }

  /** After the answer committed: queue its notice. A failure loses nothing: the sweep queues it. */
  async answered(reviewId: string): Promise<void> {
    if (this.jobs === undefined) return;
    try {
      await this.enqueue(this.jobs, [reviewId]);
    } catch (error) {
      this.log.error({ err: error }, 'queueing a review notice failed; the sweep will queue it');
    }
  }

  /** Queues every answered review's notice that has no job yet; answers how many it queued. */
  async sweep(): Promise<number> {
    if (this.jobs === undefined) return 0;
    let queued = 0;
    for (;;) {
      const batch = await this.repository.unqueuedNotices(sweepBatch);
      await this.enqueue(
        this.jobs,
        batch.map((row) => row.id),
      );
      queued += batch.length;
      if (batch.length < sweepBatch) return queued;
    }
  }

  /** Sends the notice unless it was sent or another worker is sending it; a mailer failure rolls
   *  back and throws, so the queue retries with backoff. */
  async deliver(reviewId: string): Promise<void> {
    await this.repository.transaction(async (tx) => {
      const delivery = await tx.lockUnsentNotice(reviewId);
      if (delivery === undefined) {
        if (await tx.isNoticeUnsent(reviewId)) {
          throw new ReviewNoticeBusy('Another worker is sending this notice.');
        }
        return;
      }
      if (!delivery.deactivated) {
        await this.mailer.send(reviewAnsweredEmail(delivery.email, reviewId, this.settings));
      }
      await tx.markNoticeSent(reviewId, this.clock.now());
    });
  }

  private async enqueue(jobs: JobQueue, ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    const now = this.clock.now();
    await jobs.send<ReviewNoticeJob>(
      reviewNoticeQueue,
      ids.map((reviewId) => ({ id: reviewId, data: { reviewId }, startAfter: now })),
    );
    await this.repository.markNoticesQueued(ids, now);
  }
}

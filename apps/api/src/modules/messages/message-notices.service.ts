import type { MailMessage, Mailer } from '#api/adapters/mailer';
import type { SmsMessage, SmsSender } from '#api/adapters/sms/sms-sender';
import type { Clock } from '#api/clock';
import type { JobQueue, QueueRules } from '#api/jobs/job-queue';
import { deliverOnce, skipReason } from '#api/jobs/outbox';
import { escapeHtml } from '#api/lib/html';
import type { ErrorLogger } from '#api/logger';
import type { PushQueue } from '#api/jobs/push-outbox';
import type { MessageNoticeRepository, NoticeDelivery } from './message-notices.repository';

/** The pg-boss queue of reply and review notices; each job's id is its notice's id. */
export const messageNoticeQueue = 'message-notice';

export interface MessageNoticeJob {
  noticeId: string;
}

export interface MessageNoticeSettings {
  publicUrl: string;
  companyName: string;
  /** The reminders' retry rules: a notice is as urgent as a reminder. */
  rules: QueueRules;
}

const sweepBatch = 500;

/** The e-mail: that the practice wrote, and where to read it; never the subject or the text. */
export function replyNoticeEmail(to: string, link: string, companyName: string): MailMessage {
  return {
    to,
    subject: `New message from your dental practice`,
    text: [
      'You have a new message from your dental practice.',
      '',
      `Read it in the app: ${link}`,
      '',
      companyName,
    ].join('\n'),
    html: [
      '<p>You have a new message from your dental practice.</p>',
      `<p><a href="${escapeHtml(link)}">Read it in the app</a></p>`,
      `<p>${escapeHtml(companyName)}</p>`,
    ].join('\n'),
  };
}

export function replyNoticeSms(to: string, link: string, companyName: string): SmsMessage {
  return { to, body: `${companyName}: you have a new message from your dental practice. ${link}` };
}

export const reviewAnsweredSubject = 'A dentist has answered your question';

const reviewAnsweredSentence = 'A dentist has answered your request for a review.';

/** The e-mail of an answered review: only that a dentist answered, and where to read it; no
 *  question, report, finding or image. */
export function reviewAnsweredEmail(to: string, link: string, companyName: string): MailMessage {
  return {
    to,
    subject: reviewAnsweredSubject,
    text: [
      'Hello,',
      '',
      reviewAnsweredSentence,
      '',
      `Sign in to read it: ${link}`,
      '',
      companyName,
    ].join('\n'),
    html: [
      '<p>Hello,</p>',
      `<p>${escapeHtml(reviewAnsweredSentence)}</p>`,
      `<p><a href="${escapeHtml(link)}">Sign in to read it</a>.</p>`,
      `<p>${escapeHtml(companyName)}</p>`,
    ].join('\n'),
  };
}

export function reviewAnsweredSms(to: string, link: string, companyName: string): SmsMessage {
  return { to, body: `${companyName}: a dentist has answered your request for a review. ${link}` };
}

/**
 * Tells a member of a staff reply or an answered review exactly once through the job queue:
 * notices are rows written with the reply or the answer (the outbox), each one a job, and a
 * worker locks the row while sending, as appointment reminders do
 * (docs/decisions/care-messages.md, photo-reviews.md).
 */
export class MessageNoticeService {
  constructor(
    private readonly repository: MessageNoticeRepository,
    /** Undefined in a process that does not talk to the queue; the sweep queues for it. */
    private readonly jobs: JobQueue | undefined,
    private readonly mailer: Mailer,
    private readonly sms: SmsSender,
    /** The pushes written with the reply or the answer are queued with its notices. */
    private readonly push: PushQueue,
    private readonly clock: Clock,
    private readonly settings: MessageNoticeSettings,
    private readonly log: ErrorLogger,
  ) {}

  get queueRules(): QueueRules {
    return this.settings.rules;
  }

  /** After the reply's or the answer's commit: queue its notices. A failure loses nothing: the
   *  sweep queues pending notices left unqueued. */
  async afterReply(noticeIds: readonly string[]): Promise<void> {
    await this.push.afterCommit();
    if (this.jobs === undefined) return;
    try {
      await this.enqueue(this.jobs, noticeIds);
    } catch (error) {
      this.log.error({ err: error }, 'queueing message notices failed; the sweep will queue them');
    }
  }

  /** Queues every pending notice that has no job yet. */
  async sweep(): Promise<void> {
    if (this.jobs === undefined) return;
    for (;;) {
      const batch = await this.repository.unqueued(this.clock.now(), sweepBatch);
      await this.enqueue(
        this.jobs,
        batch.map((row) => row.id),
      );
      if (batch.length < sweepBatch) return;
    }
  }

  /** Sends one notice exactly once between workers (deliverOnce). */
  deliver(noticeId: string, lastAttempt: boolean): Promise<void> {
    return deliverOnce(
      this.repository,
      noticeId,
      lastAttempt,
      (delivery) => this.send(delivery),
      () => this.clock.now(),
    );
  }

  private async send(
    delivery: NoticeDelivery,
  ): Promise<{ status: 'sent' | 'skipped'; detail: string | null }> {
    const skip = skipReason(delivery);
    if (skip !== null) return { status: 'skipped', detail: skip };
    const { publicUrl, companyName } = this.settings;
    const [link, email, sms] =
      delivery.reviewId === null
        ? [`${publicUrl}/messages/${String(delivery.threadId)}`, replyNoticeEmail, replyNoticeSms]
        : [`${publicUrl}/reviews/${delivery.reviewId}`, reviewAnsweredEmail, reviewAnsweredSms];
    if (delivery.channel === 'email') {
      await this.mailer.send(email(delivery.email, link, companyName));
    } else if (delivery.phone !== null) {
      await this.sms.send(sms(delivery.phone, link, companyName));
    }
    return { status: 'sent', detail: null };
  }

  private async enqueue(jobs: JobQueue, ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    const now = this.clock.now();
    await jobs.send<MessageNoticeJob>(
      messageNoticeQueue,
      ids.map((id) => ({ id, data: { noticeId: id }, startAfter: now })),
    );
    await this.repository.markQueued(ids, now);
  }
}

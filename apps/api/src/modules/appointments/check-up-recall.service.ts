import type { CheckUpRecall, CheckUpRecallRequest } from '@dental/contracts';
import type { Mailer, MailMessage } from '#api/adapters/mailer';
import type { SmsMessage, SmsSender } from '#api/adapters/sms/sms-sender';
import type { Clock } from '#api/clock';
import type { JobQueue, QueueRules } from '#api/jobs/job-queue';
import { deliverOnce, skipReason } from '#api/jobs/outbox';
import { htmlParagraphs } from '#api/lib/html';
import type { CheckUpRecallRepository, RecallDelivery } from './check-up-recall.repository';

/** The pg-boss queue of recall jobs; each job's id is its outbox row's id. */
export const recallQueue = 'check-up-recall';

export interface RecallJob {
  noticeId: string;
}

export interface RecallSettings {
  publicUrl: string;
  companyName: string;
  /** The reminders' retry rules: a recall is sent the same way. */
  rules: QueueRules;
}

const sweepBatch = 500;

/** The date `months` months after `date`, as PostgreSQL's interval arithmetic gives it in UTC
 *  (a 31st falls back to the month's last day), so the screen shows the date the sweep uses. */
export function addMonths(date: Date, months: number): Date {
  const result = new Date(date);
  const day = result.getUTCDate();
  result.setUTCDate(1);
  result.setUTCMonth(result.getUTCMonth() + months);
  const lastDay = new Date(
    Date.UTC(result.getUTCFullYear(), result.getUTCMonth() + 1, 0),
  ).getUTCDate();
  result.setUTCDate(Math.min(day, lastDay));
  return result;
}

/** The recall e-mail: no note, no treatment, only that a check-up is due and where to book. */
export function recallEmail(to: string, months: number, companyName: string, link: string) {
  const lines = [
    `It has been ${String(months)} months since your last dental appointment, so it is time to book your next check-up.`,
    `Book it here: ${link}`,
    'You asked for this reminder; you can change or turn it off on the Appointments screen.',
    companyName,
  ];
  const message: MailMessage = {
    to,
    subject: `A reminder from ${companyName}`,
    text: lines.join('\n\n'),
    html: htmlParagraphs(lines),
  };
  return message;
}

/** The recall SMS: nothing about the member's health, only the nudge and the link. */
export function recallSms(to: string, companyName: string, link: string): SmsMessage {
  return { to, body: `${companyName}: it is time to book your next dental check-up. ${link}` };
}

/**
 * The check-up recall (docs/decisions/check-up-recall.md): the member's setting, and its sending
 * exactly once per due date through the job queue, like appointment reminders: a sweep makes
 * each due recall's outbox row (unique per member, due date and channel) and queues its job; a
 * worker locks the row while sending.
 */
export class CheckUpRecallService {
  constructor(
    private readonly repository: CheckUpRecallRepository,
    /** Undefined in a process that does not talk to the queue. */
    private readonly jobs: JobQueue | undefined,
    private readonly mailer: Mailer,
    private readonly sms: SmsSender,
    private readonly clock: Clock,
    private readonly settings: RecallSettings,
  ) {}

  get queueRules(): QueueRules {
    return this.settings.rules;
  }

  async get(userId: string): Promise<CheckUpRecall> {
    const { recall, lastAppointmentDate } = await this.repository.view(userId, this.clock.now());
    const months =
      recall?.intervalMonths === 6 || recall?.intervalMonths === 12 ? recall.intervalMonths : null;
    return {
      interval_months: months,
      email_alert: recall?.email ?? false,
      sms_alert: recall?.sms ?? false,
      last_appointment_date: lastAppointmentDate?.toISOString() ?? null,
      due_date:
        months === null || lastAppointmentDate === null
          ? null
          : addMonths(lastAppointmentDate, months).toISOString(),
    };
  }

  async set(userId: string, request: CheckUpRecallRequest): Promise<CheckUpRecall> {
    if (request.interval_months === null) {
      await this.repository.remove(userId);
    } else {
      await this.repository.save({
        userId,
        intervalMonths: request.interval_months,
        email: request.email_alert,
        sms: request.sms_alert,
        updatedAt: this.clock.now(),
      });
    }
    return this.get(userId);
  }

  /** Makes the rows of recalls now due, then queues every row without a job; answers how many
   *  rows it made. A stop between the two loses nothing: the next sweep queues them. */
  async sweep(): Promise<number> {
    if (this.jobs === undefined) return 0;
    const made = await this.repository.createDue(this.clock.now());
    for (;;) {
      const ids = await this.repository.unqueued(sweepBatch);
      if (ids.length > 0) {
        const now = this.clock.now();
        await this.jobs.send<RecallJob>(
          recallQueue,
          ids.map((id) => ({ id, data: { noticeId: id }, startAfter: now })),
        );
        await this.repository.markQueued(ids, now);
      }
      if (ids.length < sweepBatch) return made;
    }
  }

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
    delivery: RecallDelivery,
  ): Promise<{ status: 'sent' | 'skipped'; detail: string | null }> {
    if (!delivery.stillWanted) return { status: 'skipped', detail: 'recall turned off' };
    const skip = skipReason(delivery);
    if (skip !== null) return { status: 'skipped', detail: skip };
    const { publicUrl, companyName } = this.settings;
    const link = `${publicUrl}/appointments/add`;
    if (delivery.channel === 'email') {
      await this.mailer.send(
        recallEmail(delivery.email, delivery.intervalMonths, companyName, link),
      );
    } else if (delivery.phone !== null) {
      await this.sms.send(recallSms(delivery.phone, companyName, link));
    }
    return { status: 'sent', detail: null };
  }
}

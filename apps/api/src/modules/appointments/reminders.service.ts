import type { Mailer } from '#api/adapters/mailer';
import type { SmsSender } from '#api/adapters/sms/sms-sender';
import type { Clock } from '#api/clock';
import type { ReminderRow } from '#api/db/schema';
import type { JobQueue, QueueRules } from '#api/jobs/job-queue';
import { deliverOnce, skipReason } from '#api/jobs/outbox';
import type { ErrorLogger } from '#api/logger';
import type { PushQueue } from '#api/jobs/push-outbox';
import { reminderEmail, reminderPush, reminderSms } from './reminder-message';
import type { ReminderDelivery, ReminderRepository } from './reminders.repository';

/** The pg-boss queue of reminder jobs; each job's id is its reminder's id. */
export const reminderQueue = 'appointment-reminder';

export interface ReminderJob {
  reminderId: string;
}

export interface ReminderSettings {
  publicUrl: string;
  companyName: string;
  /** A job running longer (or whose worker vanished) is retried after this long. */
  attemptSeconds: number;
  retryLimit: number;
  retryDelaySeconds: number;
}

const sweepBatch = 500;

/** The reminders' retry rules, which pushes share. */
export function reminderQueueRules(
  settings: Pick<ReminderSettings, 'attemptSeconds' | 'retryLimit' | 'retryDelaySeconds'>,
): QueueRules {
  return {
    retryLimit: settings.retryLimit,
    retryDelaySeconds: settings.retryDelaySeconds,
    expireInSeconds: settings.attemptSeconds,
    // Each send holds a database connection while it runs; leave the pool room for the API.
    batchSize: 5,
  };
}

/**
 * Sends appointment reminders exactly once through the job queue: reminders are rows written
 * with their appointment (the outbox), each one is a job due at its alert time, and a worker
 * locks the row while sending (docs/decisions/reminder-delivery.md).
 */
export class ReminderService {
  constructor(
    private readonly repository: ReminderRepository,
    /** Undefined in a process that does not talk to the queue; the sweep queues for it. */
    private readonly jobs: JobQueue | undefined,
    private readonly mailer: Mailer,
    private readonly sms: SmsSender,
    /** A push reminder becomes pushes to the member's devices, each sent by the push queue. */
    private readonly push: PushQueue,
    private readonly clock: Clock,
    private readonly settings: ReminderSettings,
    private readonly log: ErrorLogger,
  ) {}

  /** The queue's retry rules: backoff from `retryDelaySeconds`, doubling on each attempt. */
  get queueRules(): QueueRules {
    return reminderQueueRules(this.settings);
  }

  /**
   * After the appointment's transaction committed: queue the new reminders' jobs and cancel the
   * dropped ones. A failure here loses nothing: a dropped reminder's row is gone, so its job does
   * nothing, and a reminder left unqueued is queued by the next sweep.
   */
  async afterCommit(added: readonly ReminderRow[], dropped: readonly string[]): Promise<void> {
    if (this.jobs === undefined) return;
    try {
      await this.jobs.cancel(reminderQueue, dropped);
      await this.enqueue(this.jobs, added);
    } catch (error) {
      this.log.error({ err: error }, 'queueing reminders failed; the sweep will queue them');
    }
  }

  /** Queues every pending reminder that has no job yet; answers how many it queued. */
  async sweep(): Promise<number> {
    if (this.jobs === undefined) return 0;
    let queued = 0;
    for (;;) {
      const batch = await this.repository.unqueued(this.clock.now(), sweepBatch);
      await this.enqueue(this.jobs, batch);
      queued += batch.length;
      if (batch.length < sweepBatch) return queued;
    }
  }

  /** Sends one reminder exactly once between workers (deliverOnce); a push reminder's pushes are
   *  queued after its commit. */
  async deliver(reminderId: string, lastAttempt: boolean): Promise<void> {
    await deliverOnce(
      this.repository,
      reminderId,
      lastAttempt,
      (delivery, tx) => this.send(delivery, tx),
      () => this.clock.now(),
    );
    await this.push.afterCommit();
  }

  private async send(
    delivery: ReminderDelivery,
    tx: ReminderRepository,
  ): Promise<{ status: 'sent' | 'skipped'; detail: string | null }> {
    const skip = skipReason(delivery);
    if (skip !== null) return { status: 'skipped', detail: skip };
    if (delivery.channel === 'push') {
      const notice = reminderPush(delivery);
      const pushes = await tx.insertPushes(delivery.userId, delivery.id, notice, this.clock.now());
      return pushes === 0
        ? { status: 'skipped', detail: 'no device with notifications on' }
        : { status: 'sent', detail: null };
    }
    const context = {
      appointmentId: delivery.appointmentId,
      appointmentDate: delivery.appointmentDate,
      timeZone: delivery.timeZone,
      note: delivery.note,
      publicUrl: this.settings.publicUrl,
      companyName: this.settings.companyName,
    };
    if (delivery.channel === 'email') {
      await this.mailer.send(reminderEmail(delivery.email, context));
    } else if (delivery.phone !== null) {
      await this.sms.send(reminderSms(delivery.phone, context));
    }
    return { status: 'sent', detail: null };
  }

  private async enqueue(
    jobs: JobQueue,
    rows: readonly Pick<ReminderRow, 'id' | 'alertTime'>[],
  ): Promise<void> {
    if (rows.length === 0) return;
    await jobs.send<ReminderJob>(
      reminderQueue,
      rows.map((row) => ({ id: row.id, data: { reminderId: row.id }, startAfter: row.alertTime })),
    );
    await this.repository.markQueued(
      rows.map((row) => row.id),
      this.clock.now(),
    );
  }
}

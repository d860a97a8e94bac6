import { and, asc, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { Database } from '#api/db/client';
import type { OutboxOutcome, OutboxRows } from '#api/jobs/outbox';
import { insertPushes, type PushNotice } from '#api/jobs/push-outbox';
import { appointments, reminders, users, type ReminderRow } from '#api/db/schema';

/** What a worker needs to send one reminder, and nothing more. */
export interface ReminderDelivery {
  id: string;
  userId: string;
  channel: ReminderRow['channel'];
  appointmentId: string;
  appointmentDate: Date;
  timeZone: string;
  /** The patient's own note, so the reminder says what the appointment is. */
  note: string;
  email: string;
  emailConfirmed: boolean;
  phone: string | null;
  deactivated: boolean;
}

/** The reminder outbox as the job worker sees it: locks, outcomes and the sweep. */
export class ReminderRepository implements OutboxRows<ReminderDelivery> {
  constructor(private readonly db: Database) {}

  /** Runs `work` in one transaction; the row lock taken in it lasts until it ends. */
  transaction<T>(work: (repository: ReminderRepository) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => work(new ReminderRepository(tx)));
  }

  /**
   * Locks the reminder for this transaction when it is still pending and no other transaction
   * holds it (SKIP LOCKED): of two workers racing for it exactly one gets it, and a worker that
   * dies releases it with its connection.
   */
  async lockPending(id: string): Promise<ReminderDelivery | undefined> {
    const [row] = await this.db
      .select({
        id: reminders.id,
        channel: reminders.channel,
        appointmentId: appointments.id,
        userId: appointments.userId,
        appointmentDate: appointments.appointmentDate,
        timeZone: appointments.timeZone,
        note: appointments.note,
        email: users.email,
        phone: users.phone,
        deactivatedAt: users.deactivatedAt,
        emailConfirmedAt: users.emailConfirmedAt,
      })
      .from(reminders)
      .innerJoin(appointments, eq(appointments.id, reminders.appointmentId))
      .innerJoin(users, eq(users.id, appointments.userId))
      .where(and(eq(reminders.id, id), eq(reminders.status, 'pending')))
      .for('update', { of: reminders, skipLocked: true });
    if (row === undefined) return undefined;
    const { deactivatedAt, emailConfirmedAt, ...delivery } = row;
    return {
      ...delivery,
      deactivated: deactivatedAt !== null,
      emailConfirmed: emailConfirmedAt !== null,
    };
  }

  /** A push reminder: one push to each of the member's devices with notifications on. */
  insertPushes(userId: string, reminderId: string, notice: PushNotice, now: Date) {
    return insertPushes(this.db, userId, `reminder:${reminderId}`, notice, now);
  }

  /** Whether the reminder still waits to be sent (another worker may hold it right now). */
  async isPending(id: string): Promise<boolean> {
    const [row] = await this.db
      .select({ status: reminders.status })
      .from(reminders)
      .where(eq(reminders.id, id));
    return row?.status === 'pending';
  }

  /** Records how a reminder ended; only a pending one changes, so an outcome is written once. */
  async finish(id: string, outcome: OutboxOutcome, detail: string | null, now: Date) {
    await this.db
      .update(reminders)
      .set({
        status: outcome,
        outcome: detail,
        attempts: sql`${reminders.attempts} + 1`,
        ...(outcome === 'sent' ? { sentAt: now } : {}),
      })
      .where(and(eq(reminders.id, id), eq(reminders.status, 'pending')));
  }

  /** Counts an attempt that failed and will be retried. */
  async countFailedAttempt(id: string): Promise<void> {
    await this.db
      .update(reminders)
      .set({ attempts: sql`${reminders.attempts} + 1` })
      .where(and(eq(reminders.id, id), eq(reminders.status, 'pending')));
  }

  /** Pending reminders whose job was never queued (the process stopped right after saving). */
  unqueued(createdBefore: Date, limit: number): Promise<Pick<ReminderRow, 'id' | 'alertTime'>[]> {
    return this.db
      .select({ id: reminders.id, alertTime: reminders.alertTime })
      .from(reminders)
      .where(
        and(
          eq(reminders.status, 'pending'),
          isNull(reminders.queuedAt),
          lt(reminders.createdAt, createdBefore),
        ),
      )
      .orderBy(asc(reminders.createdAt))
      .limit(limit);
  }

  async markQueued(ids: readonly string[], now: Date): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .update(reminders)
      .set({ queuedAt: now })
      .where(and(inArray(reminders.id, [...ids]), isNull(reminders.queuedAt)));
  }
}

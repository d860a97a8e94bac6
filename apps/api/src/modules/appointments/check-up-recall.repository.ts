import { and, asc, eq, inArray, isNull, lte, max, sql } from 'drizzle-orm';
import { rowsOf, type Database } from '#api/db/client';
import type { OutboxOutcome, OutboxRecipient, OutboxRows } from '#api/jobs/outbox';
import {
  appointments,
  checkUpRecallNotices,
  checkUpRecalls,
  users,
  type CheckUpRecallRow,
} from '#api/db/schema';

/** The recall as set and the last past appointment it counts from. */
export interface RecallView {
  recall: CheckUpRecallRow | undefined;
  lastAppointmentDate: Date | null;
}

/** What a worker needs to send one recall: where, and the due date it is for. */
export interface RecallDelivery extends OutboxRecipient {
  id: string;
  email: string;
  intervalMonths: number;
  /** Whether the member still wants this channel at this interval: a recall switched off or
   *  changed after its row was made is skipped. */
  stillWanted: boolean;
}

/** The check-up recall (docs/decisions/check-up-recall.md): the member's setting and its
 *  outbox. Every query about a member takes their id. */
export class CheckUpRecallRepository implements OutboxRows<RecallDelivery> {
  constructor(private readonly db: Database) {}

  transaction<T>(work: (repository: CheckUpRecallRepository) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => work(new CheckUpRecallRepository(tx)));
  }

  async view(userId: string, now: Date): Promise<RecallView> {
    const [[recall], [last]] = await Promise.all([
      this.db.select().from(checkUpRecalls).where(eq(checkUpRecalls.userId, userId)),
      this.db
        .select({ at: max(appointments.appointmentDate) })
        .from(appointments)
        .where(and(eq(appointments.userId, userId), lte(appointments.appointmentDate, now))),
    ]);
    return { recall, lastAppointmentDate: last?.at ?? null };
  }

  async save(row: CheckUpRecallRow): Promise<void> {
    await this.db
      .insert(checkUpRecalls)
      .values(row)
      .onConflictDoUpdate({
        target: checkUpRecalls.userId,
        set: {
          intervalMonths: row.intervalMonths,
          email: row.email,
          sms: row.sms,
          updatedAt: row.updatedAt,
        },
      });
  }

  async remove(userId: string): Promise<void> {
    await this.db.delete(checkUpRecalls).where(eq(checkUpRecalls.userId, userId));
  }

  /**
   * Makes the outbox row of every recall due by `now` on each chosen channel: due the interval's
   * months after the member's last past appointment, and only while no later appointment is
   * booked (a member who already booked needs no nudge). The unique key makes a due date's row
   * once, however often this runs and however many processes run it.
   */
  async createDue(now: Date): Promise<number> {
    const result = await this.db.execute(sql`
      insert into ${checkUpRecallNotices} (user_id, due_at, channel, created_at)
      select r.user_id, last.at + make_interval(months => r.interval_months), c.channel, ${now}
      from ${checkUpRecalls} r
      cross join lateral (
        select max(a.appointment_date) as at from ${appointments} a
        where a.user_id = r.user_id and a.appointment_date <= ${now}
      ) last
      cross join lateral (
        select 'email'::reminder_channel as channel where r.email
        union all select 'sms'::reminder_channel where r.sms
      ) c
      where last.at is not null
        and last.at + make_interval(months => r.interval_months) <= ${now}
        and not exists (
          select 1 from ${appointments} b where b.user_id = r.user_id and b.appointment_date > ${now}
        )
      on conflict do nothing
      returning id`);
    return rowsOf<{ id: string }>(result).length;
  }

  async lockPending(id: string): Promise<RecallDelivery | undefined> {
    const [row] = await this.db
      .select({
        id: checkUpRecallNotices.id,
        channel: checkUpRecallNotices.channel,
        email: users.email,
        phone: users.phone,
        emailConfirmedAt: users.emailConfirmedAt,
        deactivatedAt: users.deactivatedAt,
        intervalMonths: checkUpRecalls.intervalMonths,
        wantsEmail: checkUpRecalls.email,
        wantsSms: checkUpRecalls.sms,
      })
      .from(checkUpRecallNotices)
      .innerJoin(users, eq(users.id, checkUpRecallNotices.userId))
      .leftJoin(checkUpRecalls, eq(checkUpRecalls.userId, checkUpRecallNotices.userId))
      .where(and(eq(checkUpRecallNotices.id, id), eq(checkUpRecallNotices.status, 'pending')))
      .for('update', { of: checkUpRecallNotices, skipLocked: true });
    if (row === undefined) return undefined;
    const { emailConfirmedAt, deactivatedAt, wantsEmail, wantsSms, intervalMonths, ...rest } = row;
    return {
      ...rest,
      intervalMonths: intervalMonths ?? 0,
      emailConfirmed: emailConfirmedAt !== null,
      deactivated: deactivatedAt !== null,
      stillWanted: row.channel === 'email' ? wantsEmail === true : wantsSms === true,
    };
  }

  async isPending(id: string): Promise<boolean> {
    const [row] = await this.db
      .select({ status: checkUpRecallNotices.status })
      .from(checkUpRecallNotices)
      .where(eq(checkUpRecallNotices.id, id));
    return row?.status === 'pending';
  }

  async finish(id: string, outcome: OutboxOutcome, detail: string | null, now: Date) {
    await this.db
      .update(checkUpRecallNotices)
      .set({
        status: outcome,
        outcome: detail,
        attempts: sql`${checkUpRecallNotices.attempts} + 1`,
        ...(outcome === 'sent' ? { sentAt: now } : {}),
      })
      .where(and(eq(checkUpRecallNotices.id, id), eq(checkUpRecallNotices.status, 'pending')));
  }

  async countFailedAttempt(id: string): Promise<void> {
    await this.db
      .update(checkUpRecallNotices)
      .set({ attempts: sql`${checkUpRecallNotices.attempts} + 1` })
      .where(and(eq(checkUpRecallNotices.id, id), eq(checkUpRecallNotices.status, 'pending')));
  }

  /** Pending rows whose job was never queued (made by a sweep that stopped before queueing). */
  async unqueued(limit: number): Promise<string[]> {
    const rows = await this.db
      .select({ id: checkUpRecallNotices.id })
      .from(checkUpRecallNotices)
      .where(and(eq(checkUpRecallNotices.status, 'pending'), isNull(checkUpRecallNotices.queuedAt)))
      .orderBy(asc(checkUpRecallNotices.createdAt))
      .limit(limit);
    return rows.map((row) => row.id);
  }

  async markQueued(ids: readonly string[], now: Date): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .update(checkUpRecallNotices)
      .set({ queuedAt: now })
      .where(
        and(inArray(checkUpRecallNotices.id, [...ids]), isNull(checkUpRecallNotices.queuedAt)),
      );
  }
}

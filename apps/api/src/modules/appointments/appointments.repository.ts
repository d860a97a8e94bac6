import { and, asc, count, desc, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { OutsideRangeCount, PageRequest } from '@dental/contracts';
import type { Database } from '#api/db/client';
import { rowsToFetch } from '#api/lib/pagination';
import { outsideRangeCounts } from '#api/lib/outside-range';
import {
  appointments,
  reminders,
  users,
  type AppointmentRow,
  type ReminderRow,
} from '#api/db/schema';
import { insertedRow } from '#api/db/inserted-row';

export type AppointmentFields = Pick<
  AppointmentRow,
  'appointmentDate' | 'timeZone' | 'note' | 'emailAlert' | 'smsAlert' | 'pushAlert' | 'alertTimes'
>;

export type NewReminder = Pick<ReminderRow, 'appointmentId' | 'channel' | 'alertTime'>;

export interface AppointmentFilter {
  order: 'upcoming' | 'previous';
  now: Date;
  /** Calendar days (YYYY-MM-DD) in each appointment's own time zone, both ends included. */
  startDate: string | undefined;
  endDate: string | undefined;
  page: PageRequest;
}

/** The calendar day an appointment takes place on, in its own time zone. */
const localDay = sql`(${appointments.appointmentDate} AT TIME ZONE ${appointments.timeZone})::date`;

/** Upcoming: from `now` on; previous: before it. */
const ofOrder = ({ order, now }: Pick<AppointmentFilter, 'order' | 'now'>) =>
  order === 'upcoming'
    ? gte(appointments.appointmentDate, now)
    : lt(appointments.appointmentDate, now);

/**
 * The only code that reads or writes appointments and their reminders. Every query about a
 * member's appointment takes that member's id, so another member's row is never found.
 */
export class AppointmentRepository {
  constructor(private readonly db: Database) {}

  /** Runs `work` in one transaction: the appointment and its reminders change together. */
  transaction<T>(work: (repository: AppointmentRepository) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => work(new AppointmentRepository(tx)));
  }

  list(userId: string, filter: AppointmentFilter): Promise<AppointmentRow[]> {
    const conditions: SQL[] = [eq(appointments.userId, userId), ofOrder(filter)];
    if (filter.startDate !== undefined) {
      conditions.push(sql`${localDay} >= ${filter.startDate}::date`);
    }
    if (filter.endDate !== undefined) conditions.push(sql`${localDay} <= ${filter.endDate}::date`);
    const byDate =
      filter.order === 'upcoming'
        ? asc(appointments.appointmentDate)
        : desc(appointments.appointmentDate);
    return this.db
      .select()
      .from(appointments)
      .where(and(...conditions))
      .orderBy(byDate, asc(appointments.id))
      .limit(rowsToFetch(filter.page))
      .offset(filter.page.offset);
  }

  /** How many of the member's upcoming or previous appointments lie outside the dates. */
  async countOutside(
    userId: string,
    filter: Omit<AppointmentFilter, 'page'>,
  ): Promise<OutsideRangeCount> {
    const [row] = await this.db
      .select(outsideRangeCounts(localDay, filter))
      .from(appointments)
      .where(and(eq(appointments.userId, userId), ofOrder(filter)));
    return row ?? { before: 0, after: 0 };
  }

  /**
   * The member's appointments from `now` on. In a transaction, the member's row is locked
   * first, so concurrent creates of one member count one after another.
   */
  async countUpcomingLocked(userId: string, now: Date): Promise<number> {
    await this.db.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
    const [row] = await this.db
      .select({ count: count() })
      .from(appointments)
      .where(and(eq(appointments.userId, userId), gte(appointments.appointmentDate, now)));
    return row?.count ?? 0;
  }

  async find(userId: string, id: string): Promise<AppointmentRow | undefined> {
    const [row] = await this.db
      .select()
      .from(appointments)
      .where(and(eq(appointments.userId, userId), eq(appointments.id, id)));
    return row;
  }

  async insert(userId: string, fields: AppointmentFields, now: Date): Promise<AppointmentRow> {
    const row = insertedRow(
      await this.db
        .insert(appointments)
        .values({ ...fields, userId, createdAt: now, updatedAt: now })
        .returning(),
    );
    return row;
  }

  async update(
    userId: string,
    id: string,
    fields: AppointmentFields,
    now: Date,
  ): Promise<AppointmentRow | undefined> {
    const [row] = await this.db
      .update(appointments)
      .set({ ...fields, updatedAt: now })
      .where(and(eq(appointments.userId, userId), eq(appointments.id, id)))
      .returning();
    return row;
  }

  /** Deletes the appointment (its reminders go with it); false when it is not the member's. */
  async delete(userId: string, id: string): Promise<boolean> {
    const deleted = await this.db
      .delete(appointments)
      .where(and(eq(appointments.userId, userId), eq(appointments.id, id)))
      .returning({ id: appointments.id });
    return deleted.length === 1;
  }

  /** The reminders of an appointment already found as the member's own. */
  remindersOf(appointmentId: string): Promise<ReminderRow[]> {
    return this.db.select().from(reminders).where(eq(reminders.appointmentId, appointmentId));
  }

  async insertReminders(rows: readonly NewReminder[], now: Date): Promise<ReminderRow[]> {
    if (rows.length === 0) return [];
    return this.db
      .insert(reminders)
      .values(rows.map((row) => ({ ...row, createdAt: now })))
      .returning();
  }

  async deleteReminders(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.db.delete(reminders).where(inArray(reminders.id, [...ids]));
  }
}

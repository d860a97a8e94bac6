import {
  appointmentNotFoundMessage,
  maxUpcomingAppointments,
  pastReminderMessage,
  reminderCanFire,
  upcomingAppointmentsLimitMessage,
  type Appointment,
  type AppointmentOrder,
  type AppointmentOutsideRangeQuery,
  type OutsideRangeCount,
  type PageRequest,
  type ParsedAppointmentRequest,
} from '@dental/contracts';
import { pageOf, type Page } from '#api/lib/pagination';
import type { Clock } from '#api/clock';
import type { AppointmentRow, ReminderRow } from '#api/db/schema';
import { BadRequest, NotFound, UnprocessableEntity } from '#api/domain-errors';
import type { AppointmentFields, AppointmentRepository } from './appointments.repository';
import { plannedReminders, reconcileReminders } from './reminder-plan';
import type { ReminderService } from './reminders.service';

export interface AppointmentListFilter extends PageRequest {
  order: AppointmentOrder;
  startDate?: string | undefined;
  endDate?: string | undefined;
}

const toEpochSeconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** Rows never leave a service: this is the appointment the API answers with
 *  (docs/product/appointments.md#appointment-calls). */
export function toAppointment(row: AppointmentRow): Appointment {
  return {
    id: row.id,
    appointment_date: row.appointmentDate.toISOString(),
    time_zone: row.timeZone,
    note: row.note,
    email_alert: row.emailAlert,
    sms_alert: row.smsAlert,
    push_alert: row.pushAlert,
    alert_before: row.alertTimes
      .map(toEpochSeconds)
      .sort((a, b) => a - b)
      .map((alertTime) => ({ alert_time: alertTime })),
  };
}

function notFound(): NotFound {
  return new NotFound(appointmentNotFoundMessage);
}

/** At most `maxUpcomingAppointments` from now on: each one schedules reminders. */
async function assertRoomForUpcoming(
  repository: AppointmentRepository,
  userId: string,
  now: Date,
): Promise<void> {
  if ((await repository.countUpcomingLocked(userId, now)) >= maxUpcomingAppointments) {
    throw new UnprocessableEntity(upcomingAppointmentsLimitMessage);
  }
}

/**
 * Refuses an alert time that is already past unless the appointment already had it (one sent, or
 * one that passed since it was set, comes back unchanged from the edit form): a new past alert
 * could never be sent (docs/decisions/past-reminder-offsets.md).
 */
function assertRemindersCanFire(
  alertTimes: readonly Date[],
  now: Date,
  kept: readonly Date[] = [],
): void {
  const nowSeconds = toEpochSeconds(now);
  const keptSeconds = new Set(kept.map(toEpochSeconds));
  const neverSent = alertTimes
    .map(toEpochSeconds)
    .filter((seconds) => !reminderCanFire(seconds, nowSeconds) && !keptSeconds.has(seconds));
  if (neverSent.length > 0) {
    throw new BadRequest(pastReminderMessage, { alert_before: [pastReminderMessage] });
  }
}

/** Appointments with their reminders (docs/product/appointments.md). */
export class AppointmentService {
  constructor(
    private readonly repository: AppointmentRepository,
    private readonly reminders: ReminderService,
    private readonly clock: Clock,
  ) {}

  /** Upcoming (soonest first) or previous (latest first), at most `appointmentListLimit`. */
  async list(userId: string, filter: AppointmentListFilter): Promise<Page<Appointment>> {
    const rows = await this.repository.list(userId, {
      order: filter.order,
      now: this.clock.now(),
      startDate: filter.startDate,
      endDate: filter.endDate,
      page: filter,
    });
    const page = pageOf(rows, filter);
    return { ...page, items: page.items.map(toAppointment) };
  }

  /** How many of the member's upcoming or previous appointments the dates leave out, earlier
   *  and later (docs/decisions/older-items-hint.md). */
  outsideRange(userId: string, query: AppointmentOutsideRangeQuery): Promise<OutsideRangeCount> {
    return this.repository.countOutside(userId, {
      order: query.order,
      now: this.clock.now(),
      startDate: query.startDate,
      endDate: query.endDate,
    });
  }

  async get(userId: string, id: string): Promise<Appointment> {
    const row = await this.repository.find(userId, id);
    if (row === undefined) throw notFound();
    return toAppointment(row);
  }

  /** Saves the appointment and its reminders together, then queues the reminders' jobs. */
  async create(userId: string, request: ParsedAppointmentRequest): Promise<Appointment> {
    const now = this.clock.now();
    const fields = toFields(request, request.time_zone ?? 'UTC');
    assertRemindersCanFire(fields.alertTimes, now);
    const { row, added } = await this.repository.transaction(async (tx) => {
      if (fields.appointmentDate >= now) await assertRoomForUpcoming(tx, userId, now);
      const created = await tx.insert(userId, fields, now);
      const planned = plannedReminders({ ...fields, now });
      const inserted = await tx.insertReminders(
        planned.map((key) => ({ ...key, appointmentId: created.id })),
        now,
      );
      return { row: created, added: inserted };
    });
    await this.reminders.afterCommit(added, []);
    return toAppointment(row);
  }

  /** Changes the appointment and reschedules its reminders in the same transaction. */
  async update(
    userId: string,
    id: string,
    request: ParsedAppointmentRequest,
  ): Promise<Appointment> {
    const now = this.clock.now();
    const result = await this.repository.transaction(async (tx) => {
      const existing = await tx.find(userId, id);
      if (existing === undefined) return undefined;
      const fields = toFields(request, request.time_zone ?? existing.timeZone);
      assertRemindersCanFire(fields.alertTimes, now, existing.alertTimes);
      // Moving a past appointment into the future takes a place among the upcoming ones.
      if (existing.appointmentDate < now && fields.appointmentDate >= now) {
        await assertRoomForUpcoming(tx, userId, now);
      }
      const updated = await tx.update(userId, id, fields, now);
      if (updated === undefined) return undefined;
      const { drop, add } = reconcileReminders(
        await tx.remindersOf(id),
        plannedReminders({ ...fields, now }),
      );
      await tx.deleteReminders(drop);
      const added: ReminderRow[] = await tx.insertReminders(
        add.map((key) => ({ ...key, appointmentId: id })),
        now,
      );
      return { row: updated, added, dropped: drop };
    });
    if (result === undefined) throw notFound();
    await this.reminders.afterCommit(result.added, result.dropped);
    return toAppointment(result.row);
  }

  /** Deletes the appointment; its reminders that were still to come are cancelled. */
  async delete(userId: string, id: string): Promise<void> {
    const dropped = await this.repository.transaction(async (tx) => {
      if ((await tx.find(userId, id)) === undefined) return undefined;
      const pending = (await tx.remindersOf(id)).filter(
        (reminder) => reminder.status === 'pending',
      );
      await tx.delete(userId, id);
      return pending.map((reminder) => reminder.id);
    });
    if (dropped === undefined) throw notFound();
    await this.reminders.afterCommit([], dropped);
  }
}

function toFields(request: ParsedAppointmentRequest, timeZone: string): AppointmentFields {
  return {
    appointmentDate: new Date(request.appointment_date),
    timeZone,
    note: request.note,
    emailAlert: request.email_alert,
    smsAlert: request.sms_alert,
    pushAlert: request.push_alert,
    alertTimes: request.alert_before.map((seconds) => new Date(seconds * 1000)),
  };
}

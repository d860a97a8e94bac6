import { createHash, randomBytes } from 'node:crypto';
import {
  appointmentListLimit,
  appointmentNotFoundMessage,
  calendarFeedNotFoundMessage,
  calendarPaths,
  reservationListLimit,
  reservationNotFoundMessage,
  type CalendarFeedCreated,
  type CalendarFeedStatus,
  type PageRequest,
} from '@dental/contracts';
import type { Clock } from '#api/clock';
import type { AppointmentRow } from '#api/db/schema';
import { NotFound } from '#api/domain-errors';
import type { CalendarFeedRepository } from './calendar-feed.repository';
import {
  appointmentEvent,
  calendarText,
  consultationEvent,
  type CalendarSettings,
  type ConsultationEventSource,
} from './ics';

/** The member's appointments, as the appointments module's repository reads them (wired in
 *  services.ts). */
export interface CalendarAppointments {
  find(userId: string, id: string): Promise<AppointmentRow | undefined>;
  list(
    userId: string,
    filter: {
      order: 'upcoming';
      now: Date;
      startDate: undefined;
      endDate: undefined;
      page: PageRequest;
    },
  ): Promise<AppointmentRow[]>;
}

/** The member's booked consultations, as the consultation module's repository reads them. */
export interface CalendarConsultations {
  findReservation(userId: string, id: string): Promise<ConsultationEventSource | undefined>;
  listReservations(
    userId: string,
    upcoming: true,
    now: Date,
    page: PageRequest,
  ): Promise<ConsultationEventSource[]>;
}

/** 256 random bits: a feed URL cannot be guessed. */
const tokenBytes = 32;
/** A calendar app drops events that leave the feed, so recent past ones stay in it. */
const feedPastDays = 90;
const dayMs = 24 * 60 * 60 * 1000;

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/** Calendar export (docs/decisions/calendar-export.md): `.ics` downloads and the private feed. */
export class CalendarService {
  constructor(
    private readonly feeds: CalendarFeedRepository,
    private readonly appointments: CalendarAppointments,
    private readonly consultations: CalendarConsultations,
    private readonly clock: Clock,
    private readonly settings: CalendarSettings,
  ) {}

  /** The member's own appointment with its note and reminder alarms. */
  async appointment(userId: string, id: string): Promise<string> {
    const row = await this.appointments.find(userId, id);
    if (row === undefined) throw new NotFound(appointmentNotFoundMessage);
    return calendarText(
      [appointmentEvent(row, this.settings, true)],
      this.settings,
      this.clock.now(),
    );
  }

  /** The member's own booked consultation, with the doctor and how it takes place. */
  async reservation(userId: string, id: string): Promise<string> {
    const row = await this.consultations.findReservation(userId, id);
    if (row === undefined) throw new NotFound(reservationNotFoundMessage);
    return calendarText(
      [consultationEvent(row, this.settings, true)],
      this.settings,
      this.clock.now(),
    );
  }

  async feedStatus(userId: string): Promise<CalendarFeedStatus> {
    const row = await this.feeds.find(userId);
    return { active: row !== undefined, created_at: row?.createdAt.toISOString() ?? null };
  }

  /** A new feed URL; any previous one stops working. Only the token's hash is stored. */
  async createFeed(userId: string): Promise<CalendarFeedCreated> {
    const token = randomBytes(tokenBytes).toString('base64url');
    const row = await this.feeds.replace(userId, hashOf(token), this.clock.now());
    return {
      url: `${this.settings.publicUrl}${calendarPaths.feedFile(token)}`,
      created_at: row.createdAt.toISOString(),
    };
  }

  async revokeFeed(userId: string): Promise<void> {
    await this.feeds.delete(userId);
  }

  /**
   * The feed of the token's member: appointments and booked consultations from `feedPastDays`
   * ago on, with times and alarms only (no note, no doctor), as the URL may leak.
   */
  async feed(token: string): Promise<string> {
    const userId = await this.feeds.memberByTokenHash(hashOf(token));
    if (userId === undefined) throw new NotFound(calendarFeedNotFoundMessage);
    const now = this.clock.now();
    const since = new Date(now.getTime() - feedPastDays * dayMs);
    const [appointments, consultations] = await Promise.all([
      this.appointments.list(userId, {
        order: 'upcoming',
        now: since,
        startDate: undefined,
        endDate: undefined,
        page: { offset: 0, limit: appointmentListLimit },
      }),
      this.consultations.listReservations(userId, true, since, {
        offset: 0,
        limit: reservationListLimit,
      }),
    ]);
    return calendarText(
      [
        ...appointments
          .slice(0, appointmentListLimit)
          .map((row) => appointmentEvent(row, this.settings, false)),
        ...consultations
          .slice(0, reservationListLimit)
          .map((row) => consultationEvent(row, this.settings, false)),
      ],
      this.settings,
      now,
    );
  }
}

import { newSummaryDays, recentUploadDays, type UpNext } from '@dental/contracts';
import type { Clock } from '#api/clock';
import type { HomeRepository } from './home.repository';

const dayMs = 24 * 60 * 60 * 1000;

/** Home's strip of what is next (docs/decisions/home-up-next.md). */
export class HomeService {
  constructor(
    private readonly repository: HomeRepository,
    private readonly clock: Clock,
  ) {}

  /** The member's soonest appointment and consultation, the newest doctor's summary and recent
   *  uploads; each null when there is none, so a new member's Home shows no strip. */
  async upNext(userId: string): Promise<UpNext> {
    const now = this.clock.now();
    const daysAgo = (days: number) => new Date(now.getTime() - days * dayMs);
    // One after another: PGlite has one connection, and each is a single indexed row.
    const appointment = await this.repository.nextAppointment(userId, now);
    const reservation = await this.repository.nextReservation(userId, now);
    const summary = await this.repository.latestSummarySince(userId, daysAgo(newSummaryDays));
    const uploads = await this.repository.photosAddedSince(userId, daysAgo(recentUploadDays), now);
    return {
      next_appointment:
        appointment === undefined
          ? null
          : {
              id: appointment.id,
              appointment_date: appointment.appointmentDate.toISOString(),
              time_zone: appointment.timeZone,
            },
      next_consultation:
        reservation === undefined
          ? null
          : {
              id: reservation.id,
              reservation_time: reservation.reservationTime.toISOString(),
              timezone: reservation.timeZone,
              doctor_name: reservation.doctorName,
            },
      new_summary:
        summary === undefined
          ? null
          : {
              reservation_id: summary.reservationId,
              reservation_time: summary.reservationTime.toISOString(),
              timezone: summary.timeZone,
              doctor_name: summary.doctorName,
            },
      recent_uploads:
        uploads === undefined
          ? null
          : {
              count: uploads.count,
              latest: {
                id: uploads.latest.id,
                photo_type: uploads.latest.photoType,
                shoot_date: uploads.latest.shootDate,
              },
            },
    };
  }
}

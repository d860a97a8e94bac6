import { z } from 'zod';
import { photoTypes } from './oral-photo';

/** Home's strip of what is next (docs/product/general.md#whats-next): one call, one audit row. */
export const homePaths = { upNext: '/api/home/up-next/' } as const;

/** A doctor's summary counts as new for this many days after the doctor wrote it
 *  (docs/decisions/home-up-next.md). */
export const newSummaryDays = 30;
/** Photos and X-rays added within this many days count as recent uploads. */
export const recentUploadDays = 14;

const instant = z.iso.datetime({ offset: true });

export const upNext = z.object({
  /** The member's soonest appointment from now on. */
  next_appointment: z
    .object({ id: z.uuid(), appointment_date: instant, time_zone: z.string() })
    .nullable(),
  /** The soonest booked virtual consultation still ahead. */
  next_consultation: z
    .object({
      id: z.uuid(),
      reservation_time: instant,
      timezone: z.string(),
      doctor_name: z.string(),
    })
    .nullable(),
  /** The latest doctor's summary written within newSummaryDays. */
  new_summary: z
    .object({
      reservation_id: z.uuid(),
      reservation_time: instant,
      timezone: z.string(),
      doctor_name: z.string(),
    })
    .nullable(),
  /** How many photos and X-rays were added within recentUploadDays, and the latest of them. */
  recent_uploads: z
    .object({
      count: z.number().int().min(1),
      latest: z.object({ id: z.uuid(), photo_type: z.enum(photoTypes), shoot_date: z.iso.date() }),
    })
    .nullable(),
});
export type UpNext = z.infer<typeof upNext>;

import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';
import { reservationTimeFormat } from '@dental/contracts';

dayjs.extend(utc);
dayjs.extend(timezone);

/** 'YYYY-MM-DD HH:mm' (docs/product/consultation.md#reservation-history) in the given zone: the
 *  zone the reservation was booked in on the history cards, the patient's own zone on the booking
 *  page. */
export function formatReservationTime(instant: string, zone: string): string {
  return dayjs(instant).tz(zone).format(reservationTimeFormat);
}

/** The calendar day of an instant in a zone, for grouping free slots. */
export function dayInZone(instant: string, zone: string): string {
  return dayjs(instant).tz(zone).format('ddd YYYY-MM-DD');
}

/** The wall-clock time of an instant in a zone, as the booking grid shows it. */
export function timeInZone(instant: string, zone: string): string {
  return dayjs(instant).tz(zone).format('HH:mm');
}

/** The browser's IANA zone, which the reservation is kept in. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

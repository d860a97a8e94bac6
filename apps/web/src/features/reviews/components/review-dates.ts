import dayjs from 'dayjs';

/** A review's day in the reader's time zone: '2026-11-29'. */
export function reviewDay(iso: string): string {
  return dayjs(iso).format('YYYY-MM-DD');
}

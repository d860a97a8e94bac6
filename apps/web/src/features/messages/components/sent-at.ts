import dayjs from 'dayjs';

/** When a message was sent, in the reader's time zone: '2026-11-29 09:41'. */
export function sentAt(iso: string): string {
  return dayjs(iso).format('YYYY-MM-DD HH:mm');
}

import dayjs from 'dayjs';

/** Calendar dates are shown as the spec writes them everywhere: YYYY-MM-DD. */
export const dateFormat = 'YYYY-MM-DD';

export function currentYear(): number {
  return dayjs().year();
}

const pad = (value: number) => String(value).padStart(2, '0');

/** The calendar date in the browser's time zone as the date inputs take it: YYYY-MM-DD. */
export function localDate(date = new Date()): string {
  return `${String(date.getFullYear())}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

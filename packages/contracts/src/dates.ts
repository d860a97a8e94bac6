import { z } from 'zod';

/**
 * Dates and times a request may carry lie in these years (docs/decisions/date-bounds.md):
 * PostgreSQL refuses year 0000, which the ISO format allows, and nothing a member records or
 * books lies before 1900 or after 2199.
 */
export const earliestYear = 1900;
export const latestYear = 2199;
const earliest = Date.UTC(earliestYear, 0, 1);
const afterLatest = Date.UTC(latestYear + 1, 0, 1);

export const dateOutOfRangeMessage = `Enter a date from ${String(earliestYear)} to ${String(latestYear)}.`;

/** Date.parse reads both a YYYY-MM-DD date (as UTC) and an ISO date-time with its offset. */
const withinYears = (text: string) => {
  const time = Date.parse(text);
  return time >= earliest && time < afterLatest;
};

/** A request's calendar date, YYYY-MM-DD, within the years above. */
export const dateInRange = (formatMessage: string) =>
  z.iso.date({ error: formatMessage, abort: true }).refine(withinYears, dateOutOfRangeMessage);

/** A request's date and time with its offset, within the years above. */
export const dateTimeInRange = (formatMessage?: string) =>
  z.iso
    .datetime({
      offset: true,
      // A text that is no date at all gets the format's message alone, not the range's too.
      abort: true,
      ...(formatMessage === undefined ? {} : { error: formatMessage }),
    })
    .refine(withinYears, dateOutOfRangeMessage);

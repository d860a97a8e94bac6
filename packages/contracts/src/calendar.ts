import { z } from 'zod';

/** Calendar export (docs/decisions/calendar-export.md): one event as an `.ics` file, and a
 *  private feed URL that calendar apps subscribe to without a session. */
export const calendarRoutePatterns = {
  appointment: '/api/appointment/:id/calendar.ics',
  reservation: '/api/reservation/:id/calendar.ics',
  /** The feed itself; the token is its only credential. */
  feedFile: '/api/calendar/:token/feed.ics',
} as const;

const fill = (pattern: string, param: string, value: string) =>
  pattern.replace(`:${param}`, encodeURIComponent(value));

export const calendarPaths = {
  /** The signed-in member's feed: its state (GET), a new URL (POST), revocation (DELETE). */
  feed: '/api/calendar-feed/',
  feedFile: (token: string) => fill(calendarRoutePatterns.feedFile, 'token', token),
  appointment: (id: string) => fill(calendarRoutePatterns.appointment, 'id', id),
  reservation: (id: string) => fill(calendarRoutePatterns.reservation, 'id', id),
} as const;

export const calendarContentType = 'text/calendar; charset=utf-8';

/** Event titles: a feed URL can leak, so its events say no more than this. */
export const appointmentEventSummary = 'Dental appointment';
export const consultationEventSummary = 'Virtual dental consultation';

/** A consultation has no reminder choices; its calendar event reminds this long before. */
export const consultationAlarmMinutes = 60;

/** How a booked consultation happens, from the clinic's settings (CONSULTATION_JOIN_URL). */
export const consultationByPhoneText =
  'The doctor will call the phone number in your Profile at the booked time.';
export const consultationByVideoText = (joinUrl: string) =>
  `Join the video call at the booked time: ${joinUrl}`;
export const consultationHowText = (joinUrl: string | undefined) =>
  joinUrl === undefined ? consultationByPhoneText : consultationByVideoText(joinUrl);

export const calendarFeedNotFoundMessage = 'This calendar feed was not found.';

export const calendarFeedStatus = z.object({
  active: z.boolean(),
  /** When the current URL was made; null without a feed. */
  created_at: z.iso.datetime().nullable(),
});
export type CalendarFeedStatus = z.infer<typeof calendarFeedStatus>;

/** The URL is answered once, when it is made: only its hash is kept. */
export const calendarFeedCreated = z.object({
  url: z.url(),
  created_at: z.iso.datetime(),
});
export type CalendarFeedCreated = z.infer<typeof calendarFeedCreated>;

export const calendarFeedTokenParams = z.object({ token: z.string().min(1).max(200) });

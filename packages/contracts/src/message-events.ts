import { z } from 'zod';

/**
 * Live updates of the messages (docs/decisions/care-messages-live.md): a Server-Sent Events
 * stream per side, opened with a short-lived ticket that an authenticated POST hands out, since
 * an EventSource cannot send an Authorization header.
 */
export const messageEventPaths = {
  ticket: '/api/messages/events/ticket/',
  /** `?ticket=…` */
  stream: '/api/messages/events/',
} as const;

export const clinicMessageEventPaths = {
  ticket: '/api/clinic/messages/events/ticket/',
  /** `?ticket=…` */
  stream: '/api/clinic/messages/events/',
} as const;

/** Seconds a ticket opens a stream; the stream itself then lives up to `messageStreamSeconds`. */
export const messageEventTicketSeconds = 60;
/** A stream ends after this long and the client opens a new one with a new ticket, so a signed-out
 *  session or a deactivated account stops receiving within this time. */
export const messageStreamSeconds = 10 * 60;

export const messageEventTicket = z.object({
  ticket: z.string(),
  expires_at: z.iso.datetime({ offset: true }),
});
export type MessageEventTicket = z.infer<typeof messageEventTicket>;

export const messageEventQuery = z.object({ ticket: z.string().max(500) });

/** `event: thread`: this thread has a new message or changed; `unread` is the reader's side's
 *  count. Ids and counts only: never a subject or a text. */
export const messageThreadEvent = z.object({ thread: z.uuid(), unread: z.number().int() });
export type MessageThreadEvent = z.infer<typeof messageThreadEvent>;

/** `event: resync`: sent when the stream opens and after notices may have been missed; the client
 *  reads what it shows again. */
export const messageResyncEvent = z.object({ unread: z.number().int() });
export type MessageResyncEvent = z.infer<typeof messageResyncEvent>;

import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { messageEventTicketSeconds, type MessageEventTicket } from '@dental/contracts';
import type { Clock } from '#api/clock';
import type { Notifications } from '#api/db/notifications';
import { Unauthorized } from '#api/domain-errors';
import type { ErrorLogger } from '#api/logger';

/** A thread that changed: whose it is, for the member's stream to filter on. */
export interface ThreadChange {
  memberId: string;
  threadId: string;
}

const notice = z.object({ m: z.uuid(), t: z.uuid() });

/**
 * Tells every API process's open streams that a thread changed (docs/decisions/care-messages-live.md).
 * A failed publish is logged and never fails the write, which has committed: the other side sees
 * the message on its next read or resync.
 */
export class MessageEvents {
  constructor(
    private readonly notifications: Notifications,
    private readonly log: ErrorLogger,
  ) {}

  async changed(change: ThreadChange): Promise<void> {
    try {
      await this.notifications.publish(JSON.stringify({ m: change.memberId, t: change.threadId }));
    } catch (error) {
      this.log.error({ err: error }, 'a message event could not be published');
    }
  }

  /** The listener gets each change, or null when changes may have been missed. */
  subscribe(listener: (change: ThreadChange | null) => void): () => void {
    return this.notifications.subscribe((payload) => {
      if (payload === null) {
        listener(null);
        return;
      }
      const parsed = notice.safeParse(safeJson(payload));
      if (!parsed.success) {
        this.log.error({ payload: payload.slice(0, 100) }, 'a message event was not understood');
        return;
      }
      listener({ memberId: parsed.data.m, threadId: parsed.data.t });
    });
  }

  listeners(): number {
    return this.notifications.listeners();
  }

  ready(): Promise<void> {
    return this.notifications.ready();
  }

  close(): Promise<void> {
    return this.notifications.close();
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export type StreamAudience = 'member' | 'staff';

export const invalidTicketMessage = 'This live-update ticket is invalid or has expired.';

/**
 * Tickets that open an event stream: `<user id>.<expiry, unix s>.<HMAC-SHA256 over audience, user
 * and expiry, base64url>`. The audience is signed, so a staff ticket opens no member stream and
 * the reverse. A ticket is not the access token: it opens one kind of stream for a minute.
 */
export class EventTickets {
  constructor(
    private readonly secret: Buffer,
    private readonly clock: Clock,
  ) {}

  issue(audience: StreamAudience, userId: string): MessageEventTicket {
    const expires = Math.floor(this.clock.now().getTime() / 1000) + messageEventTicketSeconds;
    const expiry = String(expires);
    return {
      ticket: `${userId}.${expiry}.${this.signature(audience, userId, expiry)}`,
      expires_at: new Date(expires * 1000).toISOString(),
    };
  }

  /** The user the ticket was issued to; 401 when forged, for the other audience or expired. */
  verify(audience: StreamAudience, ticket: string): string {
    const [userId, expiry, signature, ...rest] = ticket.split('.');
    if (userId === undefined || expiry === undefined || signature === undefined || rest.length > 0)
      throw new Unauthorized(invalidTicketMessage);
    const expected = Buffer.from(this.signature(audience, userId, expiry));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      throw new Unauthorized(invalidTicketMessage);
    if (!/^\d{1,12}$/.test(expiry) || Number(expiry) * 1000 <= this.clock.now().getTime())
      throw new Unauthorized(invalidTicketMessage);
    return userId;
  }

  private signature(audience: StreamAudience, userId: string, expiry: string): string {
    return createHmac('sha256', this.secret)
      .update(`${audience}\n${userId}\n${expiry}`)
      .digest('base64url');
  }
}

import type { ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  clinicMessageEventPaths,
  messageEventPaths,
  messageEventQuery,
  messageEventTicket,
  messageStreamSeconds,
} from '@dental/contracts';
import { RateLimited, Unauthorized } from '#api/domain-errors';
import { security } from '#api/lib/openapi-security';
import { problems } from '#api/lib/problem-responses';
import {
  invalidTicketMessage,
  type EventTickets,
  type MessageEvents,
  type StreamAudience,
  type ThreadChange,
} from './message-events';

export interface MessageEventRoutesOptions {
  messageEvents: MessageEvents;
  eventTickets: EventTickets;
  /** The reader's side's unread count, sent with each event. */
  unread: { member: (memberId: string) => Promise<number>; staff: () => Promise<number> };
  /** Whether the account is an active staff member's, checked when a staff stream opens. */
  isActiveStaff: (userId: string) => Promise<boolean>;
  /** Comment lines this often keep proxies from closing a quiet stream; default 25 s. */
  heartbeatMs?: number;
}

/** Open streams one account may hold (a tab each); more is refused with 429. */
const maxStreamsPerAccount = 10;
const tooManyStreamsMessage = 'Too many live views are open. Please close a tab and try again.';

interface OpenStream {
  end(): void;
}

/**
 * Live updates of the messages as Server-Sent Events (docs/decisions/care-messages-live.md):
 * `thread` when a thread changed, with ids and counts only, `resync` when the stream opens and
 * after notices may have been missed. A stream is opened with a ticket from the authenticated
 * POST beside it, ends after `messageStreamSeconds`, and every open stream ends when the app
 * closes.
 */
export const messageEventRoutes: FastifyPluginAsyncZod<MessageEventRoutesOptions> = (
  app,
  { messageEvents, eventTickets, unread, isActiveStaff, heartbeatMs = 25_000 },
) => {
  const open = new Set<OpenStream>();
  const perAccount = new Map<string, number>();
  // Streams never finish on their own: the server's close would wait for them until its deadline.
  app.addHook('preClose', (done) => {
    for (const stream of open) stream.end();
    done();
  });
  app.addHook('onReady', () => messageEvents.ready());
  app.addHook('onClose', () => messageEvents.close());

  const stream = (
    reply: FastifyReply,
    log: FastifyBaseLogger,
    userId: string,
    countUnread: () => Promise<number>,
    concerns: (change: ThreadChange) => boolean,
  ) => {
    const streams = perAccount.get(userId) ?? 0;
    if (streams >= maxStreamsPerAccount) throw new RateLimited(60, tooManyStreamsMessage);
    perAccount.set(userId, streams + 1);
    reply.hijack();
    const response: ServerResponse = reply.raw;
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      // nginx would otherwise hold the events back in its buffer.
      'x-accel-buffering': 'no',
    });
    let ended = false;
    const send = (name: string, data: object) => {
      if (!ended) response.write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
    };
    const sendWithCount = (name: string, fields: object) => {
      countUnread().then(
        (count) => {
          send(name, { ...fields, unread: count });
        },
        (error: unknown) => {
          // The client opens a new stream and reads everything again.
          log.error({ err: error }, 'an unread count for a message event failed');
          entry.end();
        },
      );
    };
    const unsubscribe = messageEvents.subscribe((change) => {
      if (change === null) sendWithCount('resync', {});
      else if (concerns(change)) sendWithCount('thread', { thread: change.threadId });
    });
    const heartbeat = setInterval(() => {
      if (!ended) response.write(': \n\n');
    }, heartbeatMs);
    const lifetime = setTimeout(() => {
      entry.end();
    }, messageStreamSeconds * 1000);
    const cleanUp = () => {
      if (ended) return;
      ended = true;
      unsubscribe();
      clearInterval(heartbeat);
      clearTimeout(lifetime);
      open.delete(entry);
      const left = (perAccount.get(userId) ?? 1) - 1;
      if (left === 0) perAccount.delete(userId);
      else perAccount.set(userId, left);
    };
    const entry: OpenStream = {
      end: () => {
        cleanUp();
        response.end();
      },
    };
    open.add(entry);
    // The client went away: its listener and timers go with it.
    response.on('close', cleanUp);
    response.on('error', (error) => {
      log.warn({ err: error }, 'a message event stream failed');
      cleanUp();
    });
    response.write('retry: 5000\n\n');
    sendWithCount('resync', {});
  };

  const ticketRoute = (path: string, audience: StreamAudience) => ({
    path,
    schema: {
      tags: audience === 'member' ? ['messages'] : ['clinic'],
      security,
      summary: `A ticket that opens the ${audience === 'member' ? 'member’s' : 'practice’s'} live message updates for a minute`,
      response: { 200: messageEventTicket, ...problems(401, 403) },
    },
    config: { audit: { none: 'a ticket for a stream of ids and counts' } as const },
  });

  const member = ticketRoute(messageEventPaths.ticket, 'member');
  app.post(
    member.path,
    { onRequest: app.authenticate, config: member.config, schema: member.schema },
    (request) => eventTickets.issue('member', request.user.id),
  );
  const staff = ticketRoute(clinicMessageEventPaths.ticket, 'staff');
  app.post(
    staff.path,
    { onRequest: app.authenticateStaff, config: staff.config, schema: staff.schema },
    (request) => eventTickets.issue('staff', request.user.id),
  );

  const streamSchema = (audience: StreamAudience) => ({
    tags: audience === 'member' ? ['messages'] : ['clinic'],
    summary: `Server-Sent Events: which of the ${audience === 'member' ? 'member’s' : 'practice’s'} threads changed, with the unread count (ids and counts only)`,
    querystring: messageEventQuery,
    response: problems(400, 401, 403, 429),
  });

  app.get(messageEventPaths.stream, { schema: streamSchema('member') }, (request, reply) => {
    const memberId = eventTickets.verify('member', request.query.ticket);
    stream(
      reply,
      request.log,
      memberId,
      () => unread.member(memberId),
      (change) => change.memberId === memberId,
    );
  });

  app.get(
    clinicMessageEventPaths.stream,
    { schema: streamSchema('staff') },
    async (request, reply) => {
      const staffId = eventTickets.verify('staff', request.query.ticket);
      // A staff member deactivated since the ticket was issued opens nothing.
      if (!(await isActiveStaff(staffId))) throw new Unauthorized(invalidTicketMessage);
      stream(reply, request.log, staffId, unread.staff, () => true);
    },
  );

  return Promise.resolve();
};

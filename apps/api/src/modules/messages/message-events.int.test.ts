import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  clinicMessageEventPaths,
  clinicMessagePaths,
  createdMessage,
  messageEventPaths,
  messageEventTicket,
  messageEventTicketSeconds,
  messagePaths,
} from '@dental/contracts';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories } from '#api-test/factories';
import { staffFactories } from '#api-test/staff';
import { createMailer } from '#api/adapters/mailer';
import { buildApp } from '#api/app';
import { rowsOf } from '#api/db/client';
import { createServices } from '#api/services';

let t: TestApp;
let factory: ReturnType<typeof factories>;
let staffFactory: ReturnType<typeof staffFactories>;
let origin: string;

beforeAll(async () => {
  t = await buildTestApp();
  factory = factories(t);
  staffFactory = staffFactories(t);
  origin = await listen(t);
});
afterAll(() => t.close());

async function listen(app: TestApp): Promise<string> {
  await app.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${String((app.app.server.address() as AddressInfo).port)}`;
}

interface StreamEvent {
  event: string;
  data: Record<string, unknown>;
}

/** An EventSource's view of a stream: its events in order, read as they come. */
async function openStream(url: string) {
  const abort = new AbortController();
  const response = await fetch(url, { signal: abort.signal });
  const events: StreamEvent[] = [];
  const waiting: (() => void)[] = [];
  let ended = false;
  const wake = () => {
    for (const resolve of waiting.splice(0)) resolve();
  };
  if (response.ok && response.body !== null) {
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    void (async () => {
      let buffer = '';
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const event = /^event: (.*)$/m.exec(block)?.[1];
            const data = /^data: (.*)$/m.exec(block)?.[1];
            if (event !== undefined && data !== undefined)
              events.push({ event, data: JSON.parse(data) as Record<string, unknown> });
            wake();
          }
        }
      } catch {
        // Aborted by the test.
      }
      ended = true;
      wake();
    })();
  }
  let read = 0;
  return {
    status: response.status,
    /** The next event, or null once the stream ended. */
    async next(timeoutMs = 5_000): Promise<StreamEvent | null> {
      const deadline = Date.now() + timeoutMs;
      while (read >= events.length && !ended) {
        if (Date.now() > deadline) throw new Error('no event came');
        await new Promise<void>((resolve) => {
          waiting.push(resolve);
          setTimeout(resolve, 50);
        });
      }
      return events[read++] ?? null;
    },
    close() {
      abort.abort();
    },
  };
}

interface Reader {
  tokens: { access: string };
}

async function ticket(reader: Reader, path: string): Promise<string> {
  const res = await t.request('POST', path, { token: reader.tokens.access });
  expect(res.statusCode, res.body).toBe(200);
  return messageEventTicket.parse(res.json()).ticket;
}

const memberStream = async (member: Reader, origin_ = origin) =>
  openStream(
    `${origin_}${messageEventPaths.stream}?ticket=${encodeURIComponent(await ticket(member, messageEventPaths.ticket))}`,
  );
const staffStream = async (staff: Reader) =>
  openStream(
    `${origin}${clinicMessageEventPaths.stream}?ticket=${encodeURIComponent(await ticket(staff, clinicMessageEventPaths.ticket))}`,
  );

async function writeThread(member: Reader): Promise<string> {
  const res = await t.request('POST', messagePaths.threads, {
    token: member.tokens.access,
    body: { subject: 'A loose filling', body: 'It moves when I chew.' },
  });
  expect(res.statusCode, res.body).toBe(201);
  return createdMessage.parse(res.json()).id;
}

async function staffReply(staff: Reader, threadId: string, app = t.app) {
  const res = await app.inject({
    method: 'POST',
    url: clinicMessagePaths.thread(threadId),
    headers: { authorization: `Bearer ${staff.tokens.access}` },
    payload: { body: 'Please come in on Monday.' },
  });
  expect(res.statusCode, res.body).toBe(201);
}

describe('live message updates', () => {
  it('tell a member which of their threads the practice answered, and nobody else', async () => {
    const [alice, bob, staff] = await Promise.all([
      factory.loggedInMember(),
      factory.loggedInMember(),
      staffFactory.loggedInStaff(),
    ]);
    const aliceThread = await writeThread(alice);
    const bobThread = await writeThread(bob);
    const [aliceStream, bobStream] = await Promise.all([memberStream(alice), memberStream(bob)]);
    try {
      expect(aliceStream.status).toBe(200);
      expect(await aliceStream.next()).toEqual({ event: 'resync', data: { unread: 0 } });
      expect(await bobStream.next()).toEqual({ event: 'resync', data: { unread: 0 } });

      await staffReply(staff, aliceThread);
      await staffReply(staff, bobThread);
      // Ids and counts only: the subject and text never travel on the stream.
      expect(await aliceStream.next()).toEqual({
        event: 'thread',
        data: { thread: aliceThread, unread: 1 },
      });
      // Bob's first event is his own thread's: Alice's reply was never sent to him.
      expect(await bobStream.next()).toEqual({
        event: 'thread',
        data: { thread: bobThread, unread: 1 },
      });
    } finally {
      aliceStream.close();
      bobStream.close();
    }
  });

  it('tell staff of a member’s new thread with the practice’s unread count', async () => {
    const [member, staff] = await Promise.all([
      factory.loggedInMember(),
      staffFactory.loggedInStaff(),
    ]);
    const stream = await staffStream(staff);
    try {
      const opened = await stream.next();
      expect(opened?.event).toBe('resync');
      const threadId = await writeThread(member);
      const event = await stream.next();
      expect(event?.event).toBe('thread');
      expect(event?.data.thread).toBe(threadId);
      expect(event?.data.unread).toBe((opened?.data.unread as number) + 1);
    } finally {
      stream.close();
    }
  });

  it('open each side’s stream only with that side’s unexpired, untouched ticket', async () => {
    const [member, staff] = await Promise.all([
      factory.loggedInMember(),
      staffFactory.loggedInStaff(),
    ]);
    const memberTicket = await ticket(member, messageEventPaths.ticket);
    const staffTicket = await ticket(staff, clinicMessageEventPaths.ticket);
    const get = (path: string, value: string) =>
      t.request('GET', `${path}?ticket=${encodeURIComponent(value)}`);

    expect((await get(clinicMessageEventPaths.stream, memberTicket)).statusCode).toBe(401);
    expect((await get(messageEventPaths.stream, staffTicket)).statusCode).toBe(401);
    // The access token is no ticket, and a ticket for another account is no ticket either.
    expect((await get(messageEventPaths.stream, member.tokens.access)).statusCode).toBe(401);
    const [, expiry, signature] = memberTicket.split('.');
    const forged = `${staff.id}.${String(expiry)}.${String(signature)}`;
    expect((await get(messageEventPaths.stream, forged)).statusCode).toBe(401);
    // Tickets are handed out on each side's own guarded route only.
    expect(
      (await t.request('POST', clinicMessageEventPaths.ticket, { token: member.tokens.access }))
        .statusCode,
    ).toBe(403);
    expect(
      (await t.request('POST', messageEventPaths.ticket, { token: staff.tokens.access }))
        .statusCode,
    ).toBe(403);

    t.clock.advance((messageEventTicketSeconds + 1) * 1000);
    expect((await get(messageEventPaths.stream, memberTicket)).statusCode).toBe(401);
  });

  it('free a stream’s listener when its client goes away', async () => {
    const member = await factory.loggedInMember();
    const before = t.services.messageEvents.listeners();
    const stream = await memberStream(member);
    await stream.next();
    expect(t.services.messageEvents.listeners()).toBe(before + 1);
    stream.close();
    await expect.poll(() => t.services.messageEvents.listeners()).toBe(before);
  });

  it('end open streams when the app closes', async () => {
    const other = await buildTestApp();
    const otherOrigin = await listen(other);
    const member = await factories(other).loggedInMember();
    const res = await other.request('POST', messageEventPaths.ticket, {
      token: member.tokens.access,
    });
    const stream = await openStream(
      `${otherOrigin}${messageEventPaths.stream}?ticket=${encodeURIComponent(messageEventTicket.parse(res.json()).ticket)}`,
    );
    await stream.next();
    const started = Date.now();
    await other.close();
    expect(await stream.next()).toBeNull();
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe.runIf(inject('testDatabase').kind === 'postgres')(
  'live message updates across API processes on PostgreSQL',
  () => {
    it('reach a client of one process when another process writes, also after LISTEN’s connection is lost', async () => {
      const mailer = createMailer(t.config);
      const services = createServices(
        { config: t.config, db: t.db, mailer, notifications: t.notifications },
        t.clock,
        { error: () => undefined, warn: () => undefined },
      );
      const second = await buildApp({ config: t.config, db: t.db, mailer, services });
      await second.ready();
      const [member, staff] = await Promise.all([
        factory.loggedInMember(),
        staffFactory.loggedInStaff(),
      ]);
      const threadId = await writeThread(member);
      const stream = await memberStream(member);
      try {
        expect((await stream.next())?.event).toBe('resync');
        await staffReply(staff, threadId, second);
        expect(await stream.next()).toEqual({
          event: 'thread',
          data: { thread: threadId, unread: 1 },
        });

        // The first process's listening connection is cut: it listens again and tells its
        // streams to read everything again, and later notices arrive.
        const cut = rowsOf<{ ended: boolean }>(
          await t.db.execute(
            sql`SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity
                WHERE datname = current_database() AND query LIKE 'LISTEN%' AND pid <> pg_backend_pid()`,
          ),
        );
        expect(cut.length).toBeGreaterThan(0);
        expect(await stream.next(10_000)).toEqual({ event: 'resync', data: { unread: 1 } });
        await staffReply(staff, threadId, second);
        expect(await stream.next()).toEqual({
          event: 'thread',
          data: { thread: threadId, unread: 2 },
        });
      } finally {
        stream.close();
        await second.close();
        await mailer.close();
      }
    });
  },
);

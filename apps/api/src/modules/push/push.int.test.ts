import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appointment,
  appointmentPaths,
  clinicMessagePaths,
  createdMessage,
  deviceSessionList,
  messagePaths,
  pushEndpointNotHttpsMessage,
  pushPaths,
  pushPublicKey,
  reportPaths,
  reportStarted,
  sessionPaths,
  type PushSubscriptionRequest,
  type TokenPair,
} from '@dental/contracts';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories, type TestMember } from '#api-test/factories';
import { startPushTestServer, type PushTestServer } from '#api-test/mocks/push-test-server';
import { staffFactories } from '#api-test/staff';
import { answeredReview } from '#api-test/support/answered-review';
import { atClockShift } from '#api-test/support/clock-shift';
import { newestAuditRow } from '#api-test/support/audit-rows';
import {
  pushDeliveries,
  pushSubscriptions,
  reminders,
  users,
  type PushSubscriptionRow,
} from '#api/db/schema';

/**
 * Web Push end to end: the API encrypts and signs each push, and a local push service decrypts it
 * with the keys the test made as a browser does and checks the VAPID signature
 * (docs/decisions/web-push.md). The jobs run here as the queue's worker runs them, each twice.
 */
let t: TestApp;
let factory: ReturnType<typeof factories>;
let staffFactory: ReturnType<typeof staffFactories>;
let pushService: PushTestServer;

type Member = TestMember & { tokens: TokenPair };

beforeAll(async () => {
  t = await buildTestApp({ env: { PUSH_LOCAL_ENDPOINTS: 'on' } });
  factory = factories(t);
  staffFactory = staffFactories(t);
  pushService = await startPushTestServer(t.config.vapidKeys.publicKey);
});

afterAll(async () => {
  await t.close();
  await pushService.close();
});

async function subscribe(member: Member, body: unknown = pushService.subscribe()) {
  return t.request('POST', pushPaths.subscriptions, { token: member.tokens.access, body });
}

/** A member signed in on a device that turned notifications on. */
async function subscribed(): Promise<{ member: Member; browser: PushSubscriptionRequest }> {
  const member = await factory.loggedInMember();
  const browser = pushService.subscribe();
  const res = await subscribe(member, browser);
  expect(res.statusCode, res.body).toBe(201);
  return { member, browser };
}

/** Runs every pending push's job twice, as a re-delivered job would, and answers what arrived at
 *  `endpoint`. */
async function runPushJobs(endpoint: string) {
  const pending = await t.db
    .select({ id: pushDeliveries.id })
    .from(pushDeliveries)
    .where(eq(pushDeliveries.status, 'pending'));
  for (const { id } of pending) {
    await t.services.push.deliver(id, false);
    await t.services.push.deliver(id, false);
  }
  expect(pushService.refused).toEqual([]);
  return pushService.received.filter((push) => push.endpoint === endpoint);
}

function subscriptionsOf(member: Pick<TestMember, 'id'>): Promise<PushSubscriptionRow[]> {
  return t.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, member.id));
}

describe('the public key', () => {
  it('is the configured pair’s, for signed-in members', async () => {
    const member = await factory.loggedInMember();
    const res = await t.request('GET', pushPaths.publicKey, { token: member.tokens.access });
    expect(res.statusCode).toBe(200);
    expect(pushPublicKey.parse(res.json())).toEqual({ public_key: t.config.vapidKeys.publicKey });
    expect((await t.request('GET', pushPaths.publicKey)).statusCode).toBe(401);
  });
});

describe('subscribing', () => {
  it('stores this session’s subscription, shows it on the device list and audits it', async () => {
    const { member, browser } = await subscribed();
    const [row] = await subscriptionsOf(member);
    expect(row).toMatchObject({ endpoint: browser.endpoint, p256dh: browser.keys.p256dh });
    const devices = await t.request('GET', sessionPaths.sessions, { token: member.tokens.access });
    expect(deviceSessionList.parse(devices.json())).toEqual([
      expect.objectContaining({ current: true, push_subscription_id: row?.id }),
    ]);
    expect(await newestAuditRow(t, member.id)).toMatchObject({
      action: 'push_subscribe',
      resourceType: 'push_subscription',
      resourceId: row?.id,
      result: 'success',
    });
  });

  it('replaces the session’s earlier subscription when the browser subscribes again', async () => {
    const { member } = await subscribed();
    const again = pushService.subscribe();
    expect((await subscribe(member, again)).statusCode).toBe(201);
    expect((await subscriptionsOf(member)).map((row) => row.endpoint)).toEqual([again.endpoint]);
  });

  it.each([
    ['an endpoint that is not https', { endpoint: 'http://push.example.com/abc' }],
    ['an endpoint that is too long', { endpoint: `https://push.example.com/${'a'.repeat(2100)}` }],
    ['no URL', { endpoint: 'not a url' }],
    ['a key of the wrong length', { keys: { p256dh: 'AAAA', auth: 'x'.repeat(22) } }],
    ['no keys', { keys: undefined }],
  ])('refuses %s with a problem and stores nothing', async (_case, change) => {
    const member = await factory.loggedInMember();
    const res = await subscribe(member, { ...pushService.subscribe(), ...change });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(await subscriptionsOf(member)).toEqual([]);
  });

  it('says why an http endpoint is refused when local endpoints are off', async () => {
    const strict = await buildTestApp();
    try {
      const member = await factories(strict).loggedInMember();
      const res = await strict.request('POST', pushPaths.subscriptions, {
        token: member.tokens.access,
        body: pushService.subscribe(),
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ detail: pushEndpointNotHttpsMessage });
    } finally {
      await strict.close();
    }
  });
});

describe('unsubscribing', () => {
  it('ends the member’s own subscription; another member’s is 404 and stays', async () => {
    const { member } = await subscribed();
    const [row] = await subscriptionsOf(member);
    const other = await factory.loggedInMember();
    const url = pushPaths.subscription(row?.id ?? '');
    const refused = await t.request('DELETE', url, { token: other.tokens.access });
    expect(refused.statusCode).toBe(404);
    expect(await subscriptionsOf(member)).toHaveLength(1);
    expect((await t.request('DELETE', url, { token: member.tokens.access })).statusCode).toBe(204);
    expect(await subscriptionsOf(member)).toEqual([]);
    expect(await newestAuditRow(t, member.id)).toMatchObject({ action: 'push_unsubscribe' });
  });

  it('happens when the session ends: signing out turns the device’s notifications off', async () => {
    const { member } = await subscribed();
    const [row] = await subscriptionsOf(member);
    const res = await t.request('DELETE', sessionPaths.session(row?.sessionId ?? ''), {
      token: member.tokens.access,
    });
    expect(res.statusCode).toBe(204);
    expect(await subscriptionsOf(member)).toEqual([]);
  });
});

describe('a device signed out by a timeout', () => {
  it('keeps its notifications, listed as signed out, until the member turns them off', async () => {
    const { member, browser } = await subscribed();
    const [row] = await subscriptionsOf(member);
    // Past the idle limit (SESSION_IDLE_MINUTES, 30 by default) the device is signed out; the
    // member signs in again elsewhere.
    await atClockShift(t.clock, factory, 31 * 60_000, [member], async () => {
      const res = await t.request('GET', sessionPaths.sessions, { token: member.tokens.access });
      const devices = deviceSessionList.parse(res.json());
      expect(devices).toEqual([
        expect.objectContaining({ current: true, signed_in: true, push_subscription_id: null }),
        expect.objectContaining({
          id: row?.sessionId,
          current: false,
          signed_in: false,
          push_subscription_id: row?.id,
        }),
      ]);
      expect(await subscriptionsOf(member)).toHaveLength(1);
      const off = await t.request('DELETE', pushPaths.subscription(row?.id ?? ''), {
        token: member.tokens.access,
      });
      expect(off.statusCode).toBe(204);
      const after = await t.request('GET', sessionPaths.sessions, { token: member.tokens.access });
      expect(deviceSessionList.parse(after.json())).toEqual([
        expect.objectContaining({ current: true, signed_in: true }),
      ]);
    });
    expect(pushService.received.filter((push) => push.endpoint === browser.endpoint)).toEqual([]);
  });
});

describe('pushes', () => {
  it('remind of an appointment once, in the member’s zone, with no note', async () => {
    const { member, browser } = await subscribed();
    const when = new Date(Date.now() + 26 * 3600_000);
    const res = await t.request('POST', appointmentPaths.list, {
      token: member.tokens.access,
      body: {
        appointment_date: when.toISOString(),
        note: 'Root canal, upper left molar',
        push_alert: true,
        alert_before: [Math.floor(when.getTime() / 1000) - 24 * 3600],
        time_zone: 'America/Chicago',
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const booked = appointment.parse(res.json());
    const appointmentId = booked.id;
    expect(booked.push_alert).toBe(true);
    const [reminder] = await t.db
      .select()
      .from(reminders)
      .where(eq(reminders.appointmentId, appointmentId));
    expect(reminder?.channel).toBe('push');
    // The reminder's job, twice.
    await t.services.reminders.deliver(reminder?.id ?? '', false);
    await t.services.reminders.deliver(reminder?.id ?? '', false);
    const arrived = await runPushJobs(browser.endpoint);
    // As the e-mail words it, in the member's zone (an oracle of its own, not the code's).
    const part = (options: Intl.DateTimeFormatOptions) =>
      new Intl.DateTimeFormat('en-US', { timeZone: 'America/Chicago', ...options }).format(when);
    const [month, dayOfMonth, year] = part({
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    }).split('/');
    const day = `${month}-${dayOfMonth}-${year} ${part({ weekday: 'short' })}`;
    const time = part({ hour: '2-digit', minute: '2-digit', hour12: true });
    expect(arrived.map((push) => push.payload)).toEqual([
      {
        title: 'Dental Companion',
        body: `Reminder: your dental appointment on ${day} at ${time}`,
        url: `/appointments/${appointmentId}/edit`,
      },
    ]);
    const [push] = arrived;
    expect(push?.claims.aud).toBe(new URL(browser.endpoint).origin);
    expect(push?.claims.sub).toBe(t.config.push.subject);
    expect(push?.claims.exp).toBeGreaterThan(Date.now() / 1000);
    expect(push?.ttl).toBeGreaterThan(0);
  });

  it('tell of a reply from the practice once, without its subject or text', async () => {
    const { member, browser } = await subscribed();
    const staff = await staffFactory.loggedInStaff('practitioner');
    const started = await t.request('POST', messagePaths.threads, {
      token: member.tokens.access,
      body: { subject: 'Swelling near wisdom tooth', body: 'My jaw is swollen.' },
    });
    const threadId = createdMessage.parse(started.json()).id;
    const reply = await t.request('POST', clinicMessagePaths.thread(threadId), {
      token: staff.tokens.access,
      body: { body: 'Take ibuprofen.' },
    });
    expect(reply.statusCode, reply.body).toBe(201);
    expect((await runPushJobs(browser.endpoint)).map((push) => push.payload)).toEqual([
      {
        title: 'Dental Companion',
        body: 'You have a new message from your dental practice',
        url: `/messages/${threadId}`,
      },
    ]);
  });

  it('tell of an answered photo review once', async () => {
    const { member, browser } = await subscribed();
    const staff = await staffFactory.loggedInStaff('practitioner');
    const { reviewId } = await answeredReview(t, t.services, staff, member);
    expect((await runPushJobs(browser.endpoint)).map((push) => push.payload)).toEqual([
      {
        title: 'Dental Companion',
        body: 'Your dentist answered your photo review',
        url: `/reviews/${reviewId}`,
      },
    ]);
  });

  it('tell that a report is ready once, even if its job runs twice', async () => {
    const { member, browser } = await subscribed();
    await t.db.update(users).set({ customerLevel: 'Gold' }).where(eq(users.id, member.id));
    const asked = await t.request('POST', reportPaths.root, {
      token: member.tokens.access,
      body: { kind: 'summary' },
    });
    expect(asked.statusCode, asked.body).toBe(202);
    const { id } = reportStarted.parse(asked.json());
    await t.services.reports.run(id);
    await t.services.reports.run(id);
    expect((await runPushJobs(browser.endpoint)).map((push) => push.payload)).toEqual([
      { title: 'Dental Companion', body: 'Your report is ready', url: '/reports' },
    ]);
  });

  it.each([404, 410])('end the subscription the push service answers %i for', async (status) => {
    const { member, browser } = await subscribed();
    const staff = await staffFactory.loggedInStaff('practitioner');
    pushService.failNext(status);
    const { reviewId } = await answeredReview(t, t.services, staff, member);
    expect(await runPushJobs(browser.endpoint)).toEqual([]);
    expect(await subscriptionsOf(member)).toEqual([]);
    // The delivery stays as the record of what happened, without the text in its outcome.
    const [row] = await t.db
      .select()
      .from(pushDeliveries)
      .where(eq(pushDeliveries.source, `review:${reviewId}`));
    expect(row).toMatchObject({
      subscriptionId: null,
      status: 'skipped',
      outcome: `The push service answered ${String(status)}.`,
    });
  });

  it('retry after another failure of the push service, then arrive once', async () => {
    const { member, browser } = await subscribed();
    const staff = await staffFactory.loggedInStaff('practitioner');
    pushService.failNext(503);
    await answeredReview(t, t.services, staff, member);
    const [pending] = await t.db
      .select({ id: pushDeliveries.id })
      .from(pushDeliveries)
      .where(eq(pushDeliveries.status, 'pending'));
    await expect(t.services.push.deliver(pending?.id ?? '', false)).rejects.toThrow(/503/);
    const arrived = await runPushJobs(browser.endpoint);
    expect(arrived).toHaveLength(1);
    const [row] = await t.db
      .select()
      .from(pushDeliveries)
      .where(eq(pushDeliveries.id, pending?.id ?? ''));
    expect(row).toMatchObject({ status: 'sent', attempts: 2 });
  });
});

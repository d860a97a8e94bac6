import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import {
  appointmentEventSummary,
  appointmentPaths,
  calendarFeedCreated,
  calendarFeedStatus,
  calendarPaths,
  consultationByPhoneText,
  consultationEventSummary,
  consultationPaths,
  type Appointment,
  type ReservationDetail,
} from '@dental/contracts';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories } from '#api-test/factories';
import { TestClock } from '#api-test/test-clock';
import {
  clinicFor,
  setUpClinic,
  slotAfter,
  type ClinicSetup,
} from '#api-test/support/consultation';
import { icsEvents as eventsOf } from '#api-test/support/ics-events';
import { newestAuditRow } from '#api-test/support/audit-rows';
import { calendarFeeds, users } from '#api/db/schema';

let t: TestApp;
let factory: ReturnType<typeof factories>;
let setup: ClinicSetup;

const now = new Date('2030-03-14T12:00:00.000Z');
const hour = 3600;

beforeAll(async () => {
  t = await buildTestApp({ clock: new TestClock(now) });
  factory = factories(t);
  setup = await setUpClinic(clinicFor(t.db, t.services.blobs, t.clock));
});
afterAll(() => t.close());

type Member = Awaited<ReturnType<typeof factory.loggedInMember>>;
const as = (member: Member) => ({ token: member.tokens.access });

const appointmentAt = new Date('2030-03-20T15:30:00.000Z');
const appointmentSeconds = appointmentAt.getTime() / 1000;

async function addAppointment(member: Member, note = 'Crown fitting, left molar') {
  const res = await t.request('POST', appointmentPaths.list, {
    ...as(member),
    body: {
      appointment_date: appointmentAt.toISOString(),
      note,
      email_alert: true,
      sms_alert: false,
      alert_before: [appointmentSeconds - 24 * hour, appointmentSeconds - hour],
      time_zone: 'Europe/Paris',
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Appointment>();
}

let slot = 0;
async function book(member: Member) {
  const res = await t.request('POST', consultationPaths.reservations, {
    ...as(member),
    body: {
      doctor: setup.doctorId,
      reservation_time: slotAfter(now, 10 + slot++).toISOString(),
      timezone: 'Europe/Paris',
      answers: setup.questionIds.map((question) => ({ question, answer: 'A broken filling' })),
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<ReservationDetail>();
}

const newestAudit = (memberId: string) => newestAuditRow(t, memberId);

describe('GET /api/appointment/:id/calendar.ics', () => {
  it('answers the appointment as an event whose alarms are its reminder times, and audits it', async () => {
    const member = await factory.loggedInMember();
    const appointment = await addAppointment(member);
    const res = await t.request('GET', calendarPaths.appointment(appointment.id), as(member));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="appointment.ics"');
    const [event, ...others] = eventsOf(res.body);
    expect(others).toEqual([]);
    expect(event).toMatchObject({
      start: appointmentAt.toISOString(),
      summary: appointmentEventSummary,
      description: `Crown fitting, left molar\n\nhttp://app.test/appointments/${appointment.id}/edit`,
    });
    expect(event?.alarms).toEqual([-24 * hour, -hour]);
    expect(await newestAudit(member.id)).toMatchObject({
      action: 'read',
      resourceType: 'appointment',
      resourceId: appointment.id,
      result: 'success',
    });
  });

  it('answers 404 for another member’s appointment and 401 without a session', async () => {
    const owner = await factory.loggedInMember();
    const other = await factory.loggedInMember();
    const appointment = await addAppointment(owner);
    const path = calendarPaths.appointment(appointment.id);
    const res = await t.request('GET', path, as(other));
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ detail: 'Appointment not found.' });
    expect((await t.request('GET', path)).statusCode).toBe(401);
    expect((await t.request('GET', calendarPaths.appointment('nope'), as(owner))).statusCode).toBe(
      400,
    );
  });
});

describe('GET /api/reservation/:id/calendar.ics', () => {
  it('answers the consultation with its doctor, how it happens and an alarm an hour before', async () => {
    const member = await factory.loggedInMember();
    const reservation = await book(member);
    const res = await t.request('GET', calendarPaths.reservation(reservation.id), as(member));
    expect(res.statusCode, res.body).toBe(200);
    expect(eventsOf(res.body)).toEqual([
      {
        start: reservation.reservation_time,
        summary: `${consultationEventSummary} with ${setup.doctorName}`,
        description: `${consultationByPhoneText}\n\nhttp://app.test/virtual-consultation/reservation-record`,
        location: null,
        alarms: [-hour],
      },
    ]);
    expect(res.body).not.toContain('A broken filling');
    expect(await newestAudit(member.id)).toMatchObject({
      action: 'read',
      resourceType: 'reservation',
      resourceId: reservation.id,
    });
  });

  it('answers 404 for another member’s and for a cancelled reservation', async () => {
    const owner = await factory.loggedInMember();
    const other = await factory.loggedInMember();
    const reservation = await book(owner);
    const path = calendarPaths.reservation(reservation.id);
    expect((await t.request('GET', path, as(other))).statusCode).toBe(404);
    const cancelled = await t.request(
      'DELETE',
      consultationPaths.reservation(reservation.id),
      as(owner),
    );
    expect(cancelled.statusCode).toBe(204);
    expect((await t.request('GET', path, as(owner))).statusCode).toBe(404);
  });
});

describe('the private calendar feed', () => {
  const feedPathOf = (url: string) => new URL(url).pathname;

  it('serves the member’s events without a session, times and alarms only, until revoked', async () => {
    const member = await factory.loggedInMember();
    const other = await factory.loggedInMember();
    await addAppointment(other, 'Someone else’s appointment');
    const appointment = await addAppointment(member);
    const reservation = await book(member);

    const none = await t.request('GET', calendarPaths.feed, as(member));
    expect(calendarFeedStatus.parse(none.json())).toEqual({ active: false, created_at: null });

    const created = await t.request('POST', calendarPaths.feed, as(member));
    expect(created.statusCode, created.body).toBe(201);
    const { url } = calendarFeedCreated.parse(created.json());
    expect(url.startsWith('http://app.test/api/calendar/')).toBe(true);
    const token = url.split('/').at(-2) ?? '';
    // 32 random bytes in base64url; the database keeps only their SHA-256.
    expect(token).toMatch(/^[\w-]{43}$/);
    const [stored] = await t.db
      .select()
      .from(calendarFeeds)
      .where(eq(calendarFeeds.userId, member.id));
    expect(stored?.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored?.tokenHash).not.toContain(token);

    const feed = await t.request('GET', feedPathOf(url));
    expect(feed.statusCode, feed.body).toBe(200);
    expect(feed.headers['content-type']).toBe('text/calendar; charset=utf-8');
    const events = eventsOf(feed.body);
    expect(events.map(({ start, summary, alarms }) => ({ start, summary, alarms }))).toEqual([
      {
        start: appointmentAt.toISOString(),
        summary: appointmentEventSummary,
        alarms: [-24 * hour, -hour],
      },
      { start: reservation.reservation_time, summary: consultationEventSummary, alarms: [-hour] },
    ]);
    // No note, no doctor, no answer: the URL may leak.
    expect(feed.body).not.toContain('Crown fitting');
    expect(feed.body).not.toContain(setup.doctorName);
    expect(feed.body).not.toContain('A broken filling');
    expect(events[0]?.description).toBe(`http://app.test/appointments/${appointment.id}/edit`);

    const status = calendarFeedStatus.parse(
      (await t.request('GET', calendarPaths.feed, as(member))).json(),
    );
    expect(status).toEqual({ active: true, created_at: now.toISOString() });

    // A new URL replaces the old one at once.
    const renewed = calendarFeedCreated.parse(
      (await t.request('POST', calendarPaths.feed, as(member))).json(),
    );
    expect(renewed.url).not.toBe(url);
    expect((await t.request('GET', feedPathOf(url))).statusCode).toBe(404);
    expect((await t.request('GET', feedPathOf(renewed.url))).statusCode).toBe(200);

    expect((await t.request('DELETE', calendarPaths.feed, as(member))).statusCode).toBe(204);
    const revoked = await t.request('GET', feedPathOf(renewed.url));
    expect(revoked.statusCode).toBe(404);
    expect(revoked.json()).toMatchObject({ detail: 'This calendar feed was not found.' });
    expect(
      calendarFeedStatus.parse((await t.request('GET', calendarPaths.feed, as(member))).json()),
    ).toEqual({ active: false, created_at: null });
  });

  it('answers 404 for an unknown token and for a deactivated member’s feed', async () => {
    expect((await t.request('GET', calendarPaths.feedFile('x'.repeat(43)))).statusCode).toBe(404);
    const member = await factory.loggedInMember();
    const { url } = calendarFeedCreated.parse(
      (await t.request('POST', calendarPaths.feed, as(member))).json(),
    );
    expect((await t.request('GET', feedPathOf(url))).statusCode).toBe(200);
    await t.db.update(users).set({ deactivatedAt: now }).where(eq(users.id, member.id));
    expect((await t.request('GET', feedPathOf(url))).statusCode).toBe(404);
  });
});

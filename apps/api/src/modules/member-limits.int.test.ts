import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, count, eq, gt } from 'drizzle-orm';
import {
  appointmentPaths,
  consultationPaths,
  maxUpcomingAppointments,
  maxUpcomingReservations,
  medicalRecordPaths,
  oralPhotoPaths,
  problemContentType,
  upcomingAppointmentsLimitMessage,
  upcomingReservationsLimitMessage,
} from '@dental/contracts';
import type { LightMyRequestResponse } from 'fastify';
import { appointments, reservations } from '../db/schema';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories } from '#api-test/factories';
import { dataUrlOf, makePng } from '#api-test/fixtures/upload-test-files';
import {
  clinicFor,
  setUpClinic,
  slotAfter,
  type ClinicSetup,
} from '#api-test/support/consultation';

let t: TestApp;
let factory: ReturnType<typeof factories>;
let setup: ClinicSetup;

beforeAll(async () => {
  t = await buildTestApp();
  factory = factories(t);
  setup = await setUpClinic(clinicFor(t.db, t.services.blobs, t.clock));
});
afterAll(() => t.close());

type Member = Awaited<ReturnType<ReturnType<typeof factories>['loggedInMember']>>;

const hour = 60 * 60 * 1000;
const get = (member: Member, url: string) => t.request('GET', url, { token: member.tokens.access });
const post = (member: Member, url: string, body: unknown) =>
  t.request('POST', url, { token: member.tokens.access, body });

function expectLimitProblem(res: LightMyRequestResponse, detail: string) {
  expect(res.statusCode, res.body).toBe(422);
  expect(res.headers['content-type']).toContain(problemContentType);
  expect(res.json()).toMatchObject({ status: 422, detail });
}

const appointmentAt = (date: Date) => ({
  appointment_date: date.toISOString(),
  note: '',
  email_alert: false,
  sms_alert: false,
  alert_before: [],
});

/** Upcoming appointments written straight to the table: the cap counts rows, not requests. */
async function seedAppointments(member: Member, howMany: number, firstInHours = 1) {
  const now = t.clock.now().getTime();
  await t.db.insert(appointments).values(
    Array.from({ length: howMany }, (_, index) => ({
      userId: member.id,
      appointmentDate: new Date(now + (firstInHours + index) * hour),
      timeZone: 'UTC',
    })),
  );
}

async function upcomingAppointments(member: Member): Promise<number> {
  const [row] = await t.db
    .select({ n: count() })
    .from(appointments)
    .where(
      and(eq(appointments.userId, member.id), gt(appointments.appointmentDate, t.clock.now())),
    );
  return row?.n ?? 0;
}

/** Follows `Link: <…>; rel="next"` from `url` and answers every page's array. */
async function allPages(member: Member, url: string): Promise<unknown[][]> {
  const pages: unknown[][] = [];
  let next: string | undefined = url;
  while (next !== undefined) {
    const res = await get(member, next);
    expect(res.statusCode, res.body).toBe(200);
    pages.push(res.json<unknown[]>());
    const link = res.headers.link;
    next = typeof link === 'string' ? /^<([^>]+)>; rel="next"$/.exec(link)?.[1] : undefined;
    expect(pages.length).toBeLessThan(20);
  }
  return pages;
}

describe('per-member caps', () => {
  it(`refuses the appointment after ${String(maxUpcomingAppointments)} upcoming ones with a 422`, async () => {
    const member = await factory.loggedInMember();
    await seedAppointments(member, maxUpcomingAppointments - 1, 2);
    const soon = new Date(t.clock.now().getTime() + hour);
    expect((await post(member, appointmentPaths.list, appointmentAt(soon))).statusCode).toBe(201);
    expectLimitProblem(
      await post(member, appointmentPaths.list, appointmentAt(soon)),
      upcomingAppointmentsLimitMessage,
    );
    expect(await upcomingAppointments(member)).toBe(maxUpcomingAppointments);

    // Past appointments do not count, but one cannot be moved into the future past the cap.
    const past = new Date(t.clock.now().getTime() - 24 * hour);
    const created = await post(member, appointmentPaths.list, appointmentAt(past));
    expect(created.statusCode).toBe(201);
    const id = created.json<{ id: string }>().id;
    expectLimitProblem(
      await t.request('PUT', appointmentPaths.one(id), {
        token: member.tokens.access,
        body: appointmentAt(soon),
      }),
      upcomingAppointmentsLimitMessage,
    );
    expect(await upcomingAppointments(member)).toBe(maxUpcomingAppointments);
  });

  it(`refuses the booking after ${String(maxUpcomingReservations)} upcoming consultations with a 422`, async () => {
    const member = await factory.loggedInMember();
    const now = t.clock.now();
    await t.db.insert(reservations).values(
      Array.from({ length: maxUpcomingReservations - 1 }, (_, index) => ({
        userId: member.id,
        doctorId: setup.doctorId,
        timeZone: 'UTC',
        reservationTime: slotAfter(now, 10 + index),
      })),
    );
    const book = (halfHours: number) =>
      post(member, consultationPaths.reservations, {
        doctor: setup.doctorId,
        reservation_time: slotAfter(now, halfHours).toISOString(),
        timezone: 'UTC',
        answers: setup.questionIds.map((question) => ({ question, answer: 'None' })),
      });
    expect((await book(4)).statusCode).toBe(201);
    expectLimitProblem(await book(5), upcomingReservationsLimitMessage);
    const [row] = await t.db
      .select({ n: count() })
      .from(reservations)
      .where(eq(reservations.userId, member.id));
    expect(row?.n).toBe(maxUpcomingReservations);
  });
});

describe('?limit= and Link rel="next" on growing lists', () => {
  it('pages appointments with their filters and keeps the whole array without limit', async () => {
    const member = await factory.loggedInMember();
    await seedAppointments(member, 5, 1);
    const whole = await get(member, appointmentPaths.list);
    expect(whole.headers.link).toBeUndefined();
    const everything = whole.json<{ id: string }[]>();
    expect(everything).toHaveLength(5);

    const pages = await allPages(member, `${appointmentPaths.list}?order=upcoming&limit=2`);
    expect(pages.map((page) => page.length)).toEqual([2, 2, 1]);
    expect(pages.flat()).toEqual(everything);

    const first = await get(member, `${appointmentPaths.list}?order=upcoming&limit=2`);
    expect(first.headers.link).toBe(
      `<${appointmentPaths.list}?order=upcoming&limit=2&offset=2>; rel="next"`,
    );
    // An exact last page has no next link.
    const exact = await get(member, `${appointmentPaths.list}?limit=5`);
    expect(exact.headers.link).toBeUndefined();
  });

  it('pages photos, records and reservations', async () => {
    const member = await factory.loggedInMember();
    const png = dataUrlOf(await makePng(), 'image/png');
    for (const day of ['01', '02', '03']) {
      const photo = await post(member, oralPhotoPaths.list, {
        shoot_date: `2026-03-${day}`,
        photo_type: 'Photo',
        note: '',
        image_link: png,
      });
      expect(photo.statusCode, photo.body).toBe(201);
      const record = await post(member, medicalRecordPaths.list, {
        title: `Visit ${day}`,
        record_date: `2026-03-${day}`,
        note: '',
        medical_files: [],
      });
      expect(record.statusCode, record.body).toBe(201);
    }
    const photoPages = await allPages(member, `${oralPhotoPaths.list}?photoType=Photo&limit=2`);
    expect(photoPages.map((page) => page.length)).toEqual([2, 1]);
    expect(photoPages.flat()).toEqual((await get(member, oralPhotoPaths.list)).json());

    const recordPages = await allPages(
      member,
      `${medicalRecordPaths.list}?sequence=ascending&startDate=2026-03-02&limit=1`,
    );
    expect(recordPages.flat().map((record) => (record as { title: string }).title)).toEqual([
      'Visit 02',
      'Visit 03',
    ]);

    const now = t.clock.now();
    await t.db.insert(reservations).values(
      [30, 31, 32].map((halfHours) => ({
        userId: member.id,
        doctorId: setup.doctorId,
        timeZone: 'UTC',
        reservationTime: slotAfter(now, halfHours),
      })),
    );
    const reservationPages = await allPages(
      member,
      `${consultationPaths.reservations}?period=future&limit=2`,
    );
    expect(reservationPages.map((page) => page.length)).toEqual([2, 1]);
  });

  it.each([['0'], ['501'], ['two'], ['1.5']])('refuses limit=%s with a 400', async (limit) => {
    const member = await factory.loggedInMember();
    const res = await get(member, `${oralPhotoPaths.list}?limit=${limit}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ errors: { limit: [expect.any(String)] } });
  });
});

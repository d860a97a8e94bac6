import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  consultationPaths,
  homePaths,
  newSummaryDays,
  problemContentType,
  recentUploadDays,
  reservationDetail,
  upNext,
  type ReservationDetail,
} from '@dental/contracts';
import { auditEvents } from '#api/db/schema';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories } from '#api-test/factories';
import { atClockShift } from '#api-test/support/clock-shift';
import {
  clinicFor,
  setUpClinic,
  slotAfter,
  type ClinicSetup,
} from '#api-test/support/consultation';

let t: TestApp;
let factory: ReturnType<typeof factories>;
let clinic: ReturnType<typeof clinicFor>;
let setup: ClinicSetup;

type Member = Awaited<ReturnType<ReturnType<typeof factories>['loggedInMember']>>;

beforeAll(async () => {
  t = await buildTestApp();
  factory = factories(t);
  clinic = clinicFor(t.db, t.services.blobs, t.clock);
  setup = await setUpClinic(clinic);
});
afterAll(() => t.close());

const day = 24 * 60 * 60 * 1000;
let nextSlot = 0;

const upNextOf = async (member: Member) => {
  const res = await t.request('GET', homePaths.upNext, { token: member.tokens.access });
  expect(res.statusCode, res.body).toBe(200);
  return upNext.parse(res.json());
};

async function book(member: Member): Promise<ReservationDetail> {
  const res = await t.request('POST', consultationPaths.reservations, {
    token: member.tokens.access,
    body: {
      doctor: setup.doctorId,
      reservation_time: slotAfter(t.clock.now(), 2 + nextSlot++).toISOString(),
      timezone: 'Europe/Paris',
      answers: setup.questionIds.map((question) => ({ question, answer: 'A chipped tooth' })),
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return reservationDetail.parse(res.json());
}

const atShift = <T>(shift: number, members: readonly Member[], work: () => Promise<T>) =>
  atClockShift(t.clock, factory, shift, members, work);

describe('GET /api/home/up-next/', () => {
  it('answers nothing at all for a new member, and writes one audit row', async () => {
    const member = await factory.loggedInMember();
    expect(await upNextOf(member)).toEqual({
      next_appointment: null,
      next_consultation: null,
      new_summary: null,
      recent_uploads: null,
    });
    const rows = await t.db
      .select()
      .from(auditEvents)
      .where(
        and(eq(auditEvents.memberId, member.id), eq(auditEvents.resourceType, 'home_up_next')),
      );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ action: 'read', result: 'success', resourceId: null });
  });

  it('answers the soonest appointment and consultation, the new summary and recent uploads', async () => {
    const [ann, bob] = await Promise.all([factory.loggedInMember(), factory.loggedInMember()]);
    const later = new Date(t.clock.now().getTime() + 9 * day).toISOString();
    const sooner = new Date(t.clock.now().getTime() + 3 * day).toISOString();
    await factory.appointment(ann, { appointment_date: later, time_zone: 'Europe/Paris' });
    const soonest = await factory.appointment(ann, {
      appointment_date: sooner,
      time_zone: 'Europe/Paris',
    });
    const past = await book(ann);
    const ahead = await book(ann);
    await factory.oralPhoto(ann);
    // The later upload is the latest: the test clock stands still unless moved.
    t.clock.advance(1000);
    const photo = await factory.oralPhoto(ann);

    const shift = new Date(past.reservation_time).getTime() - t.clock.now().getTime() + 60_000;
    await atShift(shift, [ann, bob], async () => {
      await clinic.recordSummary(past.id, {
        condition: 'Healthy',
        summary: 'Keep going.',
        returnVisit: 'In 1 year',
        images: [],
      });
      expect(await upNextOf(ann)).toEqual({
        next_appointment: {
          id: soonest.id,
          appointment_date: soonest.appointment_date,
          time_zone: 'Europe/Paris',
        },
        next_consultation: {
          id: ahead.id,
          reservation_time: ahead.reservation_time,
          timezone: 'Europe/Paris',
          doctor_name: setup.doctorName,
        },
        new_summary: {
          reservation_id: past.id,
          reservation_time: past.reservation_time,
          timezone: 'Europe/Paris',
          doctor_name: setup.doctorName,
        },
        recent_uploads: {
          count: 2,
          latest: { id: photo.id, photo_type: 'X-ray', shoot_date: '2025-06-01' },
        },
      });
      // Another member sees none of it.
      expect(await upNextOf(bob)).toEqual({
        next_appointment: null,
        next_consultation: null,
        new_summary: null,
        recent_uploads: null,
      });
    });

    // Once the summary and the uploads are old and the visits past, the strip has nothing.
    const longAfter = Math.max(newSummaryDays, recentUploadDays, 10) * day + shift + day;
    await atShift(longAfter, [ann], async () => {
      expect(await upNextOf(ann)).toEqual({
        next_appointment: null,
        next_consultation: null,
        new_summary: null,
        recent_uploads: null,
      });
    });
  });

  it('needs a session, and answers 404 for another member’s record', async () => {
    const unsigned = await t.request('GET', homePaths.upNext);
    expect(unsigned.statusCode).toBe(401);
    expect(unsigned.headers['content-type']).toContain(problemContentType);
    const [ann, bob] = await Promise.all([factory.loggedInMember(), factory.loggedInMember()]);
    const other = await t.request('GET', `${homePaths.upNext}?member=${ann.id}`, {
      token: bob.tokens.access,
    });
    expect(other.statusCode).toBe(404);
  });
});

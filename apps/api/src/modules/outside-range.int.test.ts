import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appointmentPaths,
  medicalRecordPaths,
  newMedicalRecordRequest,
  newOralPhotoRequest,
  oralPhotoPaths,
  type OutsideRangeCount,
  type PhotoType,
} from '@dental/contracts';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories } from '#api-test/factories';
import { TestClock } from '#api-test/test-clock';
import { dataUrlOf, makePng } from '#api-test/fixtures/upload-test-files';
import { newestAuditRow } from '#api-test/support/audit-rows';

/** The lists' hint 'N older photos are outside these dates' (docs/decisions/older-items-hint.md)
 *  counts what each list's dates leave out, under its other filters. */

let t: TestApp;
let factory: ReturnType<typeof factories>;
let png: string;

/** "Upcoming" and "previous" appointments are fixed by this moment. */
const now = new Date('2030-03-14T12:00:00.000Z');

beforeAll(async () => {
  t = await buildTestApp({ clock: new TestClock(now) });
  factory = factories(t);
  png = dataUrlOf(await makePng(), 'image/png');
});
afterAll(() => t.close());

type Member = Awaited<ReturnType<typeof factory.loggedInMember>>;

async function count(member: Member, url: string) {
  const res = await t.request('GET', url, { token: member.tokens.access });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<OutsideRangeCount>();
}

async function addPhoto(member: Member, shoot_date: string, photo_type: PhotoType) {
  await t.services.oralPhotos.create(
    member.id,
    newOralPhotoRequest.parse({ shoot_date, photo_type, image_link: png }),
  );
}

describe(`GET ${oralPhotoPaths.outsideRange}`, () => {
  async function memberWithPhotos() {
    const member = await factory.loggedInMember();
    await addPhoto(member, '2025-03-01', 'X-ray');
    await addPhoto(member, '2026-10-28', 'Photo');
    await addPhoto(member, '2026-10-29', 'X-ray'); // the first day: inside
    await addPhoto(member, '2026-12-29', 'Photo'); // the last day: inside
    await addPhoto(member, '2027-02-01', 'Photo');
    return member;
  }
  const window = 'startDate=2026-10-29&endDate=2026-12-29';

  it('counts the photos before the first day and after the last, both days inside', async () => {
    const member = await memberWithPhotos();
    expect(await count(member, `${oralPhotoPaths.outsideRange}?${window}`)).toEqual({
      before: 2,
      after: 1,
    });
  });

  it('counts only the type the list shows', async () => {
    const member = await memberWithPhotos();
    const url = `${oralPhotoPaths.outsideRange}?${window}`;
    expect(await count(member, `${url}&photoType=X-ray`)).toEqual({ before: 1, after: 0 });
    expect(await count(member, `${url}&photoType=Photo`)).toEqual({ before: 1, after: 1 });
  });

  it('leaves nothing out on an open end', async () => {
    const member = await memberWithPhotos();
    expect(await count(member, oralPhotoPaths.outsideRange)).toEqual({ before: 0, after: 0 });
    expect(await count(member, `${oralPhotoPaths.outsideRange}?startDate=2026-10-29`)).toEqual({
      before: 2,
      after: 0,
    });
  });

  it('never counts another member’s photos', async () => {
    await memberWithPhotos();
    const bob = await factory.loggedInMember();
    expect(await count(bob, `${oralPhotoPaths.outsideRange}?${window}`)).toEqual({
      before: 0,
      after: 0,
    });
  });

  it('leaves an audit row of a read of the photo list', async () => {
    const member = await memberWithPhotos();
    await count(member, `${oralPhotoPaths.outsideRange}?${window}`);
    expect(await newestAuditRow(t, member.id)).toMatchObject({
      actor: member.id,
      action: 'read',
      resourceType: 'oral_photo_list',
      result: 'success',
    });
  });

  it('refuses dates that run backwards', async () => {
    const member = await factory.loggedInMember();
    const res = await t.request(
      'GET',
      `${oralPhotoPaths.outsideRange}?startDate=2026-12-01&endDate=2026-11-01`,
      { token: member.tokens.access },
    );
    expect(res.statusCode).toBe(400);
  });

  it('answers 401 without a session', async () => {
    const res = await t.request('GET', oralPhotoPaths.outsideRange);
    expect(res.statusCode).toBe(401);
  });
});

describe(`GET ${medicalRecordPaths.outsideRange}`, () => {
  it('counts the member’s records outside the dates, with an audit row', async () => {
    const member = await factory.loggedInMember();
    for (const record_date of ['2026-10-16', '2026-10-28', '2026-11-15', '2026-12-30']) {
      await t.services.medicalRecords.create(
        member.id,
        newMedicalRecordRequest.parse({ title: 'Cleaning', record_date, medical_files: [] }),
      );
    }
    const bob = await factory.loggedInMember();
    const url = `${medicalRecordPaths.outsideRange}?startDate=2026-10-29&endDate=2026-12-29`;

    expect(await count(member, url)).toEqual({ before: 2, after: 1 });
    expect(await newestAuditRow(t, member.id)).toMatchObject({
      action: 'read',
      resourceType: 'medical_record_list',
      result: 'success',
    });
    expect(await count(bob, url)).toEqual({ before: 0, after: 0 });
    expect(await count(member, medicalRecordPaths.outsideRange)).toEqual({ before: 0, after: 0 });
  });
});

describe(`GET ${appointmentPaths.outsideRange}`, () => {
  async function memberWithAppointments() {
    const member = await factory.loggedInMember();
    const dates: [string, string][] = [
      ['2030-01-10T09:00:00.000Z', 'UTC'],
      // 1 March at 02:00 UTC is still 28 February in New York: the day it takes place counts.
      ['2030-03-01T02:00:00.000Z', 'America/New_York'],
      ['2030-03-13T09:00:00.000Z', 'UTC'],
      ['2030-03-20T09:00:00.000Z', 'UTC'],
      ['2030-05-01T09:00:00.000Z', 'UTC'],
    ];
    for (const [appointment_date, time_zone] of dates) {
      await factory.appointment(member, { appointment_date, time_zone });
    }
    return member;
  }

  it('counts previous appointments before the dates, on the day each takes place', async () => {
    const member = await memberWithAppointments();
    const url = `${appointmentPaths.outsideRange}?order=previous&startDate=2030-03-01&endDate=2030-03-14`;
    expect(await count(member, url)).toEqual({ before: 2, after: 0 });
    expect(await newestAuditRow(t, member.id)).toMatchObject({
      action: 'read',
      resourceType: 'appointment_list',
      result: 'success',
    });
  });

  it('counts only upcoming appointments for the upcoming list', async () => {
    const member = await memberWithAppointments();
    const url = `${appointmentPaths.outsideRange}?order=upcoming&startDate=2030-03-14&endDate=2030-04-14`;
    expect(await count(member, url)).toEqual({ before: 0, after: 1 });
  });

  it('never counts another member’s appointments', async () => {
    await memberWithAppointments();
    const bob = await factory.loggedInMember();
    const url = `${appointmentPaths.outsideRange}?order=previous&startDate=2030-03-01&endDate=2030-03-14`;
    expect(await count(bob, url)).toEqual({ before: 0, after: 0 });
  });
});

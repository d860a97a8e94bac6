import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  availability,
  clinicConsultationPaths as paths,
  clinicForm,
  consultationPaths,
  doctorsWithSlots,
  practitioner,
  practitionerList,
  slotUnavailableMessage,
  timeOffOrderMessage,
  unknownTimeZoneMessage,
  windowOrderMessage,
  windowOverlapMessage,
  type DoctorWithSlots,
} from '@dental/contracts';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories } from '#api-test/factories';
import { makePng } from '#api-test/fixtures/upload-test-files';
import { clinicStaff, everyDay } from '#api-test/support/clinic-consultations';
import { notYourHoursMessage } from './availability.service';

let t: TestApp;
let clinic: ReturnType<typeof clinicStaff>;
let member: Awaited<ReturnType<ReturnType<typeof factories>['loggedInMember']>>;
let admin: Awaited<ReturnType<ReturnType<typeof clinicStaff>['admin']>>;
let ada: Awaited<ReturnType<ReturnType<typeof clinicStaff>['practitioner']>>;
let kenji: Awaited<ReturnType<ReturnType<typeof clinicStaff>['practitioner']>>;

beforeAll(async () => {
  t = await buildTestApp();
  clinic = clinicStaff(t);
  member = await factories(t).loggedInMember();
  admin = await clinic.admin();
  ada = await clinic.practitioner();
  kenji = await clinic.practitioner();
});
afterAll(async () => {
  await t.close();
});

const dayMs = 24 * 60 * 60 * 1000;
const isoDay = (time: Date) => time.toISOString().slice(0, 10);

/** The doctor as the patient's booking screen sees them, or undefined when not offered. */
async function offered(doctorId: string): Promise<DoctorWithSlots | undefined> {
  const res = await t.request('GET', `${consultationPaths.doctors}?days=7`, {
    token: member.tokens.access,
  });
  expect(res.statusCode).toBe(200);
  return doctorsWithSlots.parse(res.json()).find((doctor) => doctor.id === doctorId);
}

const hours = (overrides: Record<string, unknown> = {}) => ({
  timezone: 'UTC',
  slot_minutes: 30,
  weekly: everyDay('00:00', '24:00'),
  time_off: [],
  ...overrides,
});

describe('availability', () => {
  it('a practitioner sets their own hours and the patient’s slots follow at once', async () => {
    const put = await clinic.send('PUT', paths.availability(ada.doctorId), ada.tokens.access, {
      timezone: 'Asia/Tokyo',
      slot_minutes: 20,
      weekly: everyDay('09:00', '10:00'),
      time_off: [],
    });
    expect(put.statusCode, put.body).toBe(200);
    const saved = availability.parse(put.json<unknown>());
    expect(saved).toMatchObject({ timezone: 'Asia/Tokyo', slot_minutes: 20 });
    expect(saved.weekly).toContainEqual({ weekday: 'wed', from: '09:00', to: '10:00' });
    const doctor = await offered(ada.doctorId);
    expect(doctor?.slot_minutes).toBe(20);
    expect(doctor?.timezone).toBe('Asia/Tokyo');
    // 09:00, 09:20 and 09:40 Tokyo time (UTC+9) each day.
    const minutes = new Set(doctor?.slots.map((slot) => new Date(slot).getUTCMinutes()));
    expect(minutes).toEqual(new Set([0, 20, 40]));
    expect(new Set(doctor?.slots.map((slot) => new Date(slot).getUTCHours()))).toEqual(
      new Set([0]),
    );
  });

  it('days off take the slots of those days away at once, and booking them is refused', async () => {
    await clinic.send('PUT', paths.availability(ada.doctorId), ada.tokens.access, hours());
    const before = await offered(ada.doctorId);
    const dayAfterTomorrow = isoDay(new Date(t.clock.now().getTime() + 2 * dayMs));
    const onThatDay = (slots: string[] = []) =>
      slots.filter((slot) => slot.startsWith(dayAfterTomorrow));
    expect(onThatDay(before?.slots)).toHaveLength(48);
    const put = await clinic.send(
      'PUT',
      paths.availability(ada.doctorId),
      ada.tokens.access,
      hours({ time_off: [{ from: dayAfterTomorrow, to: dayAfterTomorrow }] }),
    );
    expect(put.statusCode, put.body).toBe(200);
    expect(availability.parse(put.json()).time_off).toEqual([
      { from: dayAfterTomorrow, to: dayAfterTomorrow },
    ]);
    const after = await offered(ada.doctorId);
    expect(onThatDay(after?.slots)).toEqual([]);
    expect(after?.slots.length).toBe((before?.slots.length ?? 0) - 48);
    // The slot is checked before the answers.
    const book = await t.request('POST', consultationPaths.reservations, {
      token: member.tokens.access,
      body: {
        doctor: ada.doctorId,
        reservation_time: `${dayAfterTomorrow}T10:00:00.000Z`,
        timezone: 'UTC',
        answers: [],
      },
    });
    expect(book.statusCode).toBe(400);
    expect(book.json<{ detail: string }>().detail).toBe(slotUnavailableMessage);
  });

  it('a practitioner cannot change another’s hours (403); an admin can', async () => {
    const mine = await clinic.send(
      'PUT',
      paths.availability(kenji.doctorId),
      ada.tokens.access,
      hours(),
    );
    expect(mine.statusCode).toBe(403);
    expect(mine.json<{ detail: string }>().detail).toBe(notYourHoursMessage);
    expect((await offered(kenji.doctorId))?.slots).toEqual([]);
    const byAdmin = await clinic.send(
      'PUT',
      paths.availability(kenji.doctorId),
      admin.tokens.access,
      hours({ slot_minutes: 60 }),
    );
    expect(byAdmin.statusCode, byAdmin.body).toBe(200);
    expect((await offered(kenji.doctorId))?.slot_minutes).toBe(60);
    const read = await clinic.send('GET', paths.availability(kenji.doctorId), ada.tokens.access);
    expect(availability.parse(read.json()).slot_minutes).toBe(60);
  });

  it.each([
    [
      'a zone that does not exist',
      { timezone: 'Mars/Olympus' },
      'timezone',
      unknownTimeZoneMessage,
    ],
    [
      'a window that ends before it starts',
      { weekly: [{ weekday: 'mon', from: '12:00', to: '09:00' }] },
      'weekly.0.to',
      windowOrderMessage,
    ],
    [
      'overlapping windows on one day',
      {
        weekly: [
          { weekday: 'tue', from: '09:00', to: '12:00' },
          { weekday: 'tue', from: '11:30', to: '13:00' },
        ],
      },
      'weekly.0',
      windowOverlapMessage,
    ],
    [
      'days off that end before they start',
      { time_off: [{ from: '2026-12-24', to: '2026-12-20' }] },
      'time_off.0.to',
      timeOffOrderMessage,
    ],
    ['a slot shorter than 5 minutes', { slot_minutes: 3 }, 'slot_minutes', undefined],
    [
      'a time that is no time',
      { weekly: [{ weekday: 'mon', from: '9:00', to: '25:00' }] },
      'weekly.0.from',
      undefined,
    ],
  ])('refuses %s with a 400 problem and changes nothing', async (_case, change, field, message) => {
    const before = await clinic.send('GET', paths.availability(ada.doctorId), ada.tokens.access);
    const res = await clinic.send(
      'PUT',
      paths.availability(ada.doctorId),
      ada.tokens.access,
      hours(change),
    );
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    const errors = res.json<{ errors: Record<string, string[]> }>().errors;
    expect(errors[field]).toBeDefined();
    if (message !== undefined) expect(errors[field]).toContain(message);
    const after = await clinic.send('GET', paths.availability(ada.doctorId), ada.tokens.access);
    expect(after.json()).toEqual(before.json());
  });
});

describe('practitioners', () => {
  it('the admin edits name, bio and portrait; patients choosing a doctor see them', async () => {
    const png = await makePng();
    const res = await clinic.send(
      'PATCH',
      paths.practitioner(kenji.doctorId),
      admin.tokens.access,
      {
        name: `${kenji.name} DDS`,
        bio: 'Gentle with nervous patients.',
        photo: `data:image/png;base64,${png.toString('base64')}`,
      },
    );
    expect(res.statusCode, res.body).toBe(200);
    const changed = practitioner.parse(res.json());
    expect(changed).toMatchObject({
      name: `${kenji.name} DDS`,
      bio: 'Gentle with nervous patients.',
      has_account: true,
      removed: false,
    });
    expect(changed.photo_url).not.toBeNull();
    const image = await t.app.inject({ method: 'GET', url: changed.photo_url ?? '' });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    const doctor = await offered(kenji.doctorId);
    expect(doctor).toMatchObject({
      name: `${kenji.name} DDS`,
      bio: 'Gentle with nervous patients.',
    });
    expect(doctor?.photo_url).toMatch(/^\/api\/files\/practitioners\//);

    const removed = await clinic.send(
      'PATCH',
      paths.practitioner(kenji.doctorId),
      admin.tokens.access,
      {
        photo: null,
      },
    );
    expect(practitioner.parse(removed.json()).photo_url).toBeNull();
    // The replaced portrait is no longer served.
    expect((await t.app.inject({ method: 'GET', url: changed.photo_url ?? '' })).statusCode).toBe(
      404,
    );
  });

  it('refuses a portrait that is not an image, and a name another doctor has', async () => {
    const notImage = await clinic.send(
      'PATCH',
      paths.practitioner(kenji.doctorId),
      admin.tokens.access,
      {
        photo: `data:image/png;base64,${Buffer.from('not an image').toString('base64')}`,
      },
    );
    expect(notImage.statusCode).toBe(415);
    const taken = await clinic.send(
      'PATCH',
      paths.practitioner(kenji.doctorId),
      admin.tokens.access,
      {
        name: ada.name,
      },
    );
    expect(taken.statusCode).toBe(409);
  });

  it('only the admin edits or removes practitioners; every staff member lists them', async () => {
    const edit = await clinic.send('PATCH', paths.practitioner(ada.doctorId), ada.tokens.access, {
      bio: 'Mine',
    });
    expect(edit.statusCode).toBe(403);
    const remove = await clinic.send(
      'DELETE',
      paths.practitioner(kenji.doctorId),
      ada.tokens.access,
    );
    expect(remove.statusCode).toBe(403);
    const list = await clinic.send('GET', paths.practitioners, ada.tokens.access);
    expect(list.statusCode).toBe(200);
    const ids = practitionerList.parse(list.json()).results.map((entry) => entry.id);
    expect(ids).toEqual(expect.arrayContaining([ada.doctorId, kenji.doctorId]));
  });

  it('a removed doctor offers no slots and takes no booking; past consultations keep the name', async () => {
    const sofia = await clinic.practitioner();
    await clinic.send('PUT', paths.availability(sofia.doctorId), admin.tokens.access, hours());
    const past = new Date(Math.floor(t.clock.now().getTime() / dayMs) * dayMs - dayMs);
    await t.services.clinic.addReservation({
      email: member.email,
      doctorName: sofia.name,
      time: past,
      timeZone: 'UTC',
    });
    const slot = (await offered(sofia.doctorId))?.slots[0];
    expect(slot).toBeDefined();

    const res = await clinic.send(
      'DELETE',
      paths.practitioner(sofia.doctorId),
      admin.tokens.access,
    );
    expect(res.statusCode).toBe(204);
    expect(await offered(sofia.doctorId)).toBeUndefined();
    const book = await t.request('POST', consultationPaths.reservations, {
      token: member.tokens.access,
      body: { doctor: sofia.doctorId, reservation_time: slot, timezone: 'UTC', answers: [] },
    });
    expect(book.statusCode).toBe(400);
    expect(book.json<{ detail: string }>().detail).toBe('Choose one of the listed doctors.');
    const history = await t.request('GET', `${consultationPaths.reservations}?period=history`, {
      token: member.tokens.access,
    });
    expect(
      history
        .json<{ doctor_aggregation: { doctor: { name: string } } }[]>()
        .map((reservation) => reservation.doctor_aggregation.doctor.name),
    ).toContain(sofia.name);
    const listed = practitionerList
      .parse((await clinic.send('GET', paths.practitioners, admin.tokens.access)).json())
      .results.find((entry) => entry.id === sofia.doctorId);
    expect(listed?.removed).toBe(true);
  });
});

describe('the consultation form', () => {
  it('the admin adds, rewords, moves and removes questions; the patient’s form follows', async () => {
    const add = await clinic.send('POST', paths.formQuestions, admin.tokens.access, {
      label: 'Which tooth hurts?',
      position: 1,
    });
    expect(add.statusCode, add.body).toBe(201);
    const { id } = add.json<{ id: string }>();
    const read = clinicForm.parse((await clinic.send('GET', paths.form, ada.tokens.access)).json());
    expect(read.questions[0]).toEqual({ id, label: 'Which tooth hurts?', position: 1 });

    const moved = await clinic.send('PATCH', paths.formQuestion(id), admin.tokens.access, {
      label: 'Which tooth hurts most?',
      position: read.questions.length,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(clinicForm.parse(moved.json()).questions.at(-1)).toEqual({
      id,
      label: 'Which tooth hurts most?',
      position: read.questions.length,
    });
    const patientForm = await t.request('GET', consultationPaths.form, {
      token: member.tokens.access,
    });
    expect(
      patientForm.json<{ questions: { question_label: string }[] }>().questions.at(-1)
        ?.question_label,
    ).toBe('Which tooth hurts most?');

    expect(
      (await clinic.send('DELETE', paths.formQuestion(id), admin.tokens.access)).statusCode,
    ).toBe(204);
    const gone = await clinic.send('DELETE', paths.formQuestion(id), admin.tokens.access);
    expect(gone.statusCode).toBe(404);
  });

  it('a practitioner reads the form but cannot change it', async () => {
    const res = await clinic.send('POST', paths.formQuestions, ada.tokens.access, {
      label: 'Mine?',
    });
    expect(res.statusCode).toBe(403);
  });

  it('a position past the end is a 400 problem', async () => {
    const res = await clinic.send('POST', paths.formQuestions, admin.tokens.access, {
      label: 'Where?',
      position: 999,
    });
    expect(res.statusCode).toBe(400);
  });
});

describe('a member’s token', () => {
  it.each([
    ['GET', paths.practitioners],
    ['GET', paths.form],
    ['GET', `${paths.consultations}?period=today`],
  ] as const)('is refused on %s %s (403)', async (method, url) => {
    const res = await clinic.send(method, url, member.tokens.access);
    expect(res.statusCode).toBe(403);
  });

  it('a member’s token cannot change hours either', async () => {
    const res = await clinic.send(
      'PUT',
      paths.availability(ada.doctorId),
      member.tokens.access,
      hours(),
    );
    expect(res.statusCode).toBe(403);
  });
});

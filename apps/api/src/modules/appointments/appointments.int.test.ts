import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import {
  appointmentListLimit,
  appointmentNoteMaxLength,
  appointmentPaths,
  pastReminderMessage,
  type Appointment,
  type AppointmentRequest,
} from '@dental/contracts';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories } from '#api-test/factories';
import { TestClock } from '#api-test/test-clock';
import { appointments, reminders } from '#api/db/schema';

let t: TestApp;
let factory: ReturnType<typeof factories>;

/** Every test runs at this moment, so "upcoming" and "in the past" are fixed. */
const now = new Date('2030-03-14T12:00:00.000Z');
const hour = 3600;
const nowSeconds = now.getTime() / 1000;

beforeAll(async () => {
  t = await buildTestApp({ clock: new TestClock(now) });
  factory = factories(t);
});
afterAll(() => t.close());

type Member = Awaited<ReturnType<typeof factory.loggedInMember>>;

const list = (member: Member, query = '') =>
  t.request('GET', `${appointmentPaths.list}${query}`, { token: member.tokens.access });
const getOne = (member: Member, id: string) =>
  t.request('GET', appointmentPaths.one(id), { token: member.tokens.access });
const post = (member: Member, body: unknown) =>
  t.request('POST', appointmentPaths.list, { token: member.tokens.access, body });
const put = (member: Member, id: string, body: unknown) =>
  t.request('PUT', appointmentPaths.one(id), { token: member.tokens.access, body });
const remove = (member: Member, id: string) =>
  t.request('DELETE', appointmentPaths.one(id), { token: member.tokens.access });

const tomorrowNoon = '2030-03-15T12:00:00.000Z';
const tomorrowSeconds = Date.parse(tomorrowNoon) / 1000;

function request(overrides: Partial<AppointmentRequest> = {}): AppointmentRequest {
  return {
    appointment_date: tomorrowNoon,
    note: 'Cleaning with Dr. Lee',
    email_alert: true,
    sms_alert: false,
    alert_before: [tomorrowSeconds - hour],
    time_zone: 'America/New_York',
    ...overrides,
  };
}

const remindersOf = (appointmentId: string) =>
  t.db
    .select()
    .from(reminders)
    .where(eq(reminders.appointmentId, appointmentId))
    .orderBy(reminders.alertTime, reminders.channel);

describe('POST /api/appointment/', () => {
  it('saves the appointment and answers it, alerts read back as {alert_time}', async () => {
    const member = await factory.loggedInMember();
    const res = await post(member, {
      appointment_date: '2030-03-15T08:00:00-04:00',
      note: '  Crown fitting  ',
      email_alert: true,
      sms_alert: true,
      push_alert: true,
      // Unordered and repeated: stored as a set, earliest first.
      alert_before: [tomorrowSeconds - 23 * hour, tomorrowSeconds - hour, tomorrowSeconds - hour],
      time_zone: 'America/New_York',
    });
    expect(res.statusCode).toBe(201);
    const created = res.json<Appointment>();
    expect(created).toEqual({
      id: expect.any(String) as string,
      appointment_date: tomorrowNoon,
      time_zone: 'America/New_York',
      note: 'Crown fitting',
      email_alert: true,
      sms_alert: true,
      push_alert: true,
      alert_before: [
        { alert_time: tomorrowSeconds - 23 * hour },
        { alert_time: tomorrowSeconds - hour },
      ],
    });
    expect((await getOne(member, created.id)).json()).toEqual(created);
  });

  it('takes UTC when no time zone is given, and an empty note when none is', async () => {
    const member = await factory.loggedInMember();
    const res = await post(member, { appointment_date: tomorrowNoon });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      time_zone: 'UTC',
      note: '',
      email_alert: false,
      sms_alert: false,
      alert_before: [],
    });
  });

  it('plans one reminder per alert and switched-on channel', async () => {
    const member = await factory.loggedInMember();
    const res = await post(
      member,
      request({
        sms_alert: true,
        appointment_date: '2030-03-14T13:30:00.000Z',
        alert_before: [nowSeconds + 30 * 60],
      }),
    );
    const created = res.json<Appointment>();
    expect(created.alert_before).toHaveLength(1);
    const rows = await remindersOf(created.id);
    expect(rows.map((row) => [row.channel, row.alertTime.getTime() / 1000, row.status])).toEqual([
      ['email', nowSeconds + 30 * 60, 'pending'],
      ['sms', nowSeconds + 30 * 60, 'pending'],
    ]);
  });

  it('plans no reminder when both alert switches are off', async () => {
    const member = await factory.loggedInMember();
    const created = (await post(member, request({ email_alert: false }))).json<Appointment>();
    expect(created.alert_before).toHaveLength(1);
    expect(await remindersOf(created.id)).toEqual([]);
  });

  it('needs a login', async () => {
    const res = await t.request('POST', appointmentPaths.list, { body: request() });
    expect(res.statusCode).toBe(401);
  });
});

describe('bad input', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['appointment_date missing', { appointment_date: undefined }, 'appointment_date'],
    ['appointment_date not a date-time', { appointment_date: '2030-03-15' }, 'appointment_date'],
    ['appointment_date nonsense', { appointment_date: 'tomorrow' }, 'appointment_date'],
    ['note not text', { note: 42 }, 'note'],
    ['note too long', { note: 'x'.repeat(appointmentNoteMaxLength + 1) }, 'note'],
    ['email_alert not a boolean', { email_alert: 'yes' }, 'email_alert'],
    ['sms_alert not a boolean', { sms_alert: 1 }, 'sms_alert'],
    ['push_alert not a boolean', { push_alert: 'yes' }, 'push_alert'],
    ['alert_before not a list', { alert_before: 3600 }, 'alert_before'],
    ['alert_before with text', { alert_before: ['soon'] }, 'alert_before.0'],
    ['alert_before with a fraction', { alert_before: [tomorrowSeconds - 0.5] }, 'alert_before.0'],
    ['alert_before negative', { alert_before: [-1] }, 'alert_before.0'],
    [
      'alert_before too many',
      { alert_before: [1, 2, 3, 4].map((n) => tomorrowSeconds - n * hour) },
      'alert_before',
    ],
    ['alert_before after the appointment', { alert_before: [tomorrowSeconds + 1] }, 'alert_before'],
    ['alert_before already past', { alert_before: [nowSeconds - hour] }, 'alert_before'],
    ['time_zone unknown', { time_zone: 'Mars/Olympus_Mons' }, 'time_zone'],
  ];

  it.each(cases)('refuses %s with a field error, and saves nothing', async (_, change, field) => {
    const member = await factory.loggedInMember();
    const res = await post(member, { ...request(), ...change });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(Object.keys(res.json<{ errors: Record<string, string[]> }>().errors)).toContain(field);
    expect((await list(member, '?startDate=2030-01-01&endDate=2030-12-31')).json()).toEqual([]);
  });

  it.each(cases)('refuses an edit with %s, and changes nothing', async (_, change, field) => {
    const member = await factory.loggedInMember();
    const created = await factory.appointment(member, request());
    const res = await put(member, created.id, { ...request(), note: 'changed', ...change });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json<{ errors: Record<string, string[]> }>().errors)).toContain(field);
    expect((await getOne(member, created.id)).json()).toEqual(created);
  });

  it.each([
    ['order', '?order=soonest', 'order'],
    ['startDate', '?startDate=03-14-2030', 'startDate'],
    ['endDate', '?endDate=2030-02-30', 'endDate'],
    ['a range that ends before it starts', '?startDate=2030-03-15&endDate=2030-03-14', 'endDate'],
  ])('refuses a list with a bad %s', async (_, query, field) => {
    const member = await factory.loggedInMember();
    const res = await list(member, query);
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json<{ errors: Record<string, string[]> }>().errors)).toContain(field);
  });

  it('refuses an id that is not a UUID', async () => {
    const member = await factory.loggedInMember();
    expect((await getOne(member, 'not-an-id')).statusCode).toBe(400);
  });
});

describe('GET /api/appointment/', () => {
  async function memberWithAppointments() {
    const member = await factory.loggedInMember();
    const dates = [
      '2030-03-13T09:00:00.000Z', // yesterday
      '2030-03-14T11:00:00.000Z', // an hour ago
      '2030-03-14T15:00:00.000Z', // in three hours
      '2030-03-20T09:00:00.000Z',
      '2030-04-20T09:00:00.000Z',
    ];
    for (const appointment_date of dates) {
      await factory.appointment(member, { appointment_date, time_zone: 'UTC' });
    }
    return member;
  }
  const datesOf = (body: Appointment[]) => body.map((appointment) => appointment.appointment_date);

  it('lists upcoming appointments soonest first by default', async () => {
    const member = await memberWithAppointments();
    const res = await list(member);
    expect(res.statusCode).toBe(200);
    expect(datesOf(res.json())).toEqual([
      '2030-03-14T15:00:00.000Z',
      '2030-03-20T09:00:00.000Z',
      '2030-04-20T09:00:00.000Z',
    ]);
  });

  it('lists previous appointments latest first', async () => {
    const member = await memberWithAppointments();
    expect(datesOf((await list(member, '?order=previous')).json())).toEqual([
      '2030-03-14T11:00:00.000Z',
      '2030-03-13T09:00:00.000Z',
    ]);
  });

  it('keeps only the days from startDate to endDate, both included', async () => {
    const member = await memberWithAppointments();
    const upcoming = await list(member, '?order=upcoming&startDate=2030-03-14&endDate=2030-04-14');
    expect(datesOf(upcoming.json())).toEqual([
      '2030-03-14T15:00:00.000Z',
      '2030-03-20T09:00:00.000Z',
    ]);
    const previous = await list(member, '?order=previous&startDate=2030-03-13&endDate=2030-03-13');
    expect(datesOf(previous.json())).toEqual(['2030-03-13T09:00:00.000Z']);
    const onlyEnd = await list(member, '?endDate=2030-03-20');
    expect(datesOf(onlyEnd.json())).toHaveLength(2);
  });

  it('counts days where the appointment takes place, in its own time zone', async () => {
    const member = await factory.loggedInMember();
    // 01:30 UTC on the 16th is 21:30 on the 15th in New York.
    await factory.appointment(member, {
      appointment_date: '2030-03-16T01:30:00.000Z',
      time_zone: 'America/New_York',
    });
    expect((await list(member, '?startDate=2030-03-15&endDate=2030-03-15')).json()).toHaveLength(1);
    expect((await list(member, '?startDate=2030-03-16&endDate=2030-03-16')).json()).toEqual([]);
  });

  it(`answers at most ${appointmentListLimit} appointments`, async () => {
    const member = await factory.loggedInMember();
    await t.db.insert(appointments).values(
      Array.from({ length: appointmentListLimit + 5 }, (_, index) => ({
        userId: member.id,
        appointmentDate: new Date(now.getTime() + (index + 1) * 60_000),
        timeZone: 'UTC',
      })),
    );
    const body = (await list(member)).json<Appointment[]>();
    expect(body).toHaveLength(appointmentListLimit);
    expect(body[0]?.appointment_date).toBe(new Date(now.getTime() + 60_000).toISOString());
  });

  it('needs a login', async () => {
    expect((await t.request('GET', appointmentPaths.list)).statusCode).toBe(401);
  });
});

describe('PUT /api/appointment/{id}/', () => {
  it('changes every field and keeps the time zone when none is sent', async () => {
    const member = await factory.loggedInMember();
    const created = await factory.appointment(member, request());
    // No time_zone: the stored one stays.
    const withoutZone = {
      appointment_date: '2030-03-22T16:00:00.000Z',
      note: 'Moved',
      email_alert: false,
      sms_alert: true,
      alert_before: [Date.parse('2030-03-22T16:00:00.000Z') / 1000 - 168 * hour],
    };
    const res = await put(member, created.id, withoutZone);
    expect(res.statusCode).toBe(200);
    const expected = {
      id: created.id,
      appointment_date: '2030-03-22T16:00:00.000Z',
      time_zone: 'America/New_York',
      note: 'Moved',
      email_alert: false,
      sms_alert: true,
      push_alert: false,
      alert_before: [{ alert_time: Date.parse('2030-03-22T16:00:00.000Z') / 1000 - 168 * hour }],
    };
    expect(res.json()).toEqual(expected);
    expect((await getOne(member, created.id)).json()).toEqual(expected);
  });

  it('reschedules: reminders no longer wanted go, new ones come, unchanged ones stay', async () => {
    const member = await factory.loggedInMember();
    const created = await factory.appointment(
      member,
      request({
        sms_alert: true,
        alert_before: [tomorrowSeconds - 20 * hour, tomorrowSeconds - hour],
      }),
    );
    const before = await remindersOf(created.id);
    expect(before).toHaveLength(4);
    const keptEmailHour = before.find(
      (row) => row.channel === 'email' && row.alertTime.getTime() / 1000 === tomorrowSeconds - hour,
    );

    await put(
      member,
      created.id,
      request({ alert_before: [tomorrowSeconds - hour, tomorrowSeconds - 2 * hour] }),
    );

    const after = await remindersOf(created.id);
    // SMS switched off, the 20-hour alert gone, a 2-hour alert new, the 1-hour alert kept.
    expect(after.map((row) => [row.channel, row.alertTime.getTime() / 1000])).toEqual([
      ['email', tomorrowSeconds - 2 * hour],
      ['email', tomorrowSeconds - hour],
    ]);
    expect(after[1]?.id).toBe(keptEmailHour?.id);
  });

  it('keeps a reminder that was already sent, and does not plan it again', async () => {
    const member = await factory.loggedInMember();
    const created = await factory.appointment(member, request());
    const [sent] = await remindersOf(created.id);
    await t.db
      .update(reminders)
      .set({ status: 'sent', sentAt: now })
      .where(eq(reminders.id, sent?.id ?? ''));

    await put(member, created.id, request({ note: 'Only the note changed' }));
    const rows = await remindersOf(created.id);
    expect(rows.map((row) => [row.id, row.status])).toEqual([[sent?.id, 'sent']]);

    await put(member, created.id, request({ alert_before: [] }));
    expect((await remindersOf(created.id)).map((row) => row.status)).toEqual(['sent']);
  });
});

describe('a reminder that can never fire', () => {
  // A visit five days away: one week before was two days ago.
  const inFiveDays = '2030-03-19T12:00:00.000Z';
  const inFiveDaysSeconds = Date.parse(inFiveDays) / 1000;
  const weekBefore = request({
    appointment_date: inFiveDays,
    alert_before: [inFiveDaysSeconds - 168 * hour, inFiveDaysSeconds - 24 * hour],
  });

  it('is refused on create, saying why, and nothing is saved', async () => {
    const member = await factory.loggedInMember();
    const res = await post(member, weekBefore);
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.json()).toMatchObject({
      status: 400,
      detail: pastReminderMessage,
      errors: { alert_before: [pastReminderMessage] },
    });
    expect((await list(member, '?startDate=2030-01-01&endDate=2030-12-31')).json()).toEqual([]);
  });

  it('is refused on edit, and the appointment and its reminders stay as they were', async () => {
    const member = await factory.loggedInMember();
    const created = await factory.appointment(member, request());
    const before = await remindersOf(created.id);
    const res = await put(member, created.id, { ...weekBefore, note: 'Moved' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ detail: pastReminderMessage });
    expect((await getOne(member, created.id)).json()).toEqual(created);
    expect(await remindersOf(created.id)).toEqual(before);
  });

  it('is refused at the very second it falls due: a reminder at now is never sent', async () => {
    const member = await factory.loggedInMember();
    const res = await post(member, request({ alert_before: [nowSeconds] }));
    expect(res.statusCode).toBe(400);
  });

  it('keeps an alert the appointment already had once its time has passed', async () => {
    const member = await factory.loggedInMember();
    const soon = request({ appointment_date: '2030-03-14T13:30:00.000Z' });
    const alertSeconds = nowSeconds + 5 * 60;
    const created = await factory.appointment(member, { ...soon, alert_before: [alertSeconds] });
    // Ten minutes later the alert is past (sent, in real life); the edit form sends it back as it
    // was.
    t.clock.advance(10 * 60 * 1000);
    try {
      const kept = await put(member, created.id, {
        ...soon,
        note: 'Only the note changed',
        alert_before: [alertSeconds],
      });
      expect(kept.statusCode, kept.body).toBe(200);
      expect(kept.json<Appointment>().alert_before).toEqual([{ alert_time: alertSeconds }]);
      // A second past alert it did not have is still refused.
      const added = await put(member, created.id, {
        ...soon,
        alert_before: [alertSeconds - hour, alertSeconds],
      });
      expect(added.statusCode).toBe(400);
    } finally {
      t.clock.advance(-10 * 60 * 1000);
    }
  });
});

describe('DELETE /api/appointment/{id}/', () => {
  it('deletes the appointment with its reminders', async () => {
    const member = await factory.loggedInMember();
    const created = await factory.appointment(member, request({ sms_alert: true }));
    const res = await remove(member, created.id);
    expect(res.statusCode).toBe(204);
    expect((await getOne(member, created.id)).statusCode).toBe(404);
    expect(await remindersOf(created.id)).toEqual([]);
    expect((await remove(member, created.id)).statusCode).toBe(404);
  });
});

describe('another member’s appointment', () => {
  it('is not found on read, edit and delete, is absent from lists, and stays as it was', async () => {
    const [owner, other] = await Promise.all([factory.loggedInMember(), factory.loggedInMember()]);
    const created = await factory.appointment(owner, request());

    for (const res of [
      await getOne(other, created.id),
      await put(other, created.id, request({ note: 'hijacked' })),
      await remove(other, created.id),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ detail: 'Appointment not found.' });
    }
    for (const order of ['upcoming', 'previous']) {
      expect((await list(other, `?order=${order}`)).json()).toEqual([]);
    }
    expect((await getOne(owner, created.id)).json()).toEqual(created);
    expect(await remindersOf(created.id)).toHaveLength(1);
  });

  it('answers the same 404 for an id that does not exist', async () => {
    const member = await factory.loggedInMember();
    const res = await getOne(member, '00000000-0000-4000-8000-000000000000');
    expect(res.statusCode).toBe(404);
  });
});

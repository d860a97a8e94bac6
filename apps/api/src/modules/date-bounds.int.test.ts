import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appointmentPaths,
  consultationPaths,
  dateOutOfRangeMessage,
  medicalRecordPaths,
  oralPhotoPaths,
  problemContentType,
  type Appointment,
  type MedicalRecord,
  type OralPhoto,
} from '@dental/contracts';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories } from '#api-test/factories';
import { dataUrlOf, makePng } from '#api-test/fixtures/upload-test-files';

// Dates a request may carry are bounded to 1900–2199 (docs/decisions/date-bounds.md): year 0000
// passed the ISO format and then failed in PostgreSQL with a 500.

let t: TestApp;
let factory: ReturnType<typeof factories>;
let member: Awaited<ReturnType<ReturnType<typeof factories>['loggedInMember']>>;
let appointment: Appointment;
let record: MedicalRecord;
let photo: OralPhoto;

const send = (method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown) =>
  t.request(method, url, { token: member.tokens.access, body });

beforeAll(async () => {
  t = await buildTestApp();
  factory = factories(t);
  member = await factory.loggedInMember();
  appointment = await factory.appointment(member, { appointment_date: '2026-12-01T09:00:00Z' });
  const png = dataUrlOf(await makePng(), 'image/png');
  const recordAnswer = await send('POST', medicalRecordPaths.list, {
    title: 'Check-up',
    record_date: '2026-04-02',
  });
  record = recordAnswer.json<MedicalRecord>();
  const photoAnswer = await send('POST', oralPhotoPaths.list, {
    shoot_date: '2026-03-01',
    photo_type: 'X-ray',
    image_link: png,
  });
  photo = photoAnswer.json<OralPhoto>();
});
afterAll(() => t.close());

/** Everything the member holds, to show a refused request changed nothing. */
async function memberData() {
  const answers = await Promise.all(
    [appointmentPaths.list, medicalRecordPaths.list, oralPhotoPaths.list].map((path) =>
      send('GET', path),
    ),
  );
  return answers.map((answer) => answer.json<{ id: string }[]>().map(({ id }) => id));
}

const outOfRange = ['0000-01-01', '9999-12-31', '1899-12-31', '2200-01-01'];
const notADate = ['10000-01-01', '+010000-01-01'];

const writes = (day: string) =>
  [
    ['POST appointment', 'POST', appointmentPaths.list, { appointment_date: `${day}T09:00:00Z` }],
    [
      'PUT appointment',
      'PUT',
      appointmentPaths.one(appointment.id),
      { appointment_date: `${day}T09:00:00Z` },
    ],
    ['POST record', 'POST', medicalRecordPaths.list, { title: 'X', record_date: day }],
    ['PUT record', 'PUT', medicalRecordPaths.one(record.id), { title: 'X', record_date: day }],
    ['POST photo', 'POST', oralPhotoPaths.list, { shoot_date: day, photo_type: 'Photo' }],
    [
      'PUT photo',
      'PUT',
      oralPhotoPaths.one(photo.id),
      { shoot_date: day, photo_type: 'Photo', note: '' },
    ],
    ['GET appointments', 'GET', `${appointmentPaths.list}?startDate=${day}`, undefined],
    ['GET appointments', 'GET', `${appointmentPaths.list}?endDate=${day}`, undefined],
    ['GET records', 'GET', `${medicalRecordPaths.list}?startDate=${day}`, undefined],
    ['GET photos', 'GET', `${oralPhotoPaths.list}?endDate=${day}`, undefined],
    ['GET slots', 'GET', `${consultationPaths.doctors}?from=${day}T00:00:00Z`, undefined],
  ] as const;

describe('dates outside 1900–2199', () => {
  it.each([...outOfRange, ...notADate])(
    'are refused with a 400 problem on every call that takes one, changing nothing: %s',
    async (day) => {
      const before = await memberData();
      for (const [name, method, url, body] of writes(day)) {
        const res = await send(method, url, body);
        expect(res.statusCode, `${name} ${url}: ${res.body}`).toBe(400);
        expect(res.headers['content-type']).toContain(problemContentType);
        if (outOfRange.includes(day)) expect(res.body).toContain(dateOutOfRangeMessage);
      }
      expect(await memberData()).toEqual(before);
    },
  );

  it('are accepted at both ends of the range', async () => {
    for (const day of ['1900-01-01', '2199-12-31']) {
      const res = await send('PUT', medicalRecordPaths.one(record.id), {
        title: 'Check-up',
        record_date: day,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<MedicalRecord>().record_date).toBe(day);
    }
  });
});

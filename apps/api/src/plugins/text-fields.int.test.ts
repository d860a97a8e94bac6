import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accountPaths,
  appointmentPaths,
  controlCharacterMessage,
  medicalRecordPaths,
  oralPhotoPaths,
  problemContentType,
  textDirectionMessage,
} from '@dental/contracts';
import type { LightMyRequestResponse } from 'fastify';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories } from '#api-test/factories';

let t: TestApp;
let factory: ReturnType<typeof factories>;

beforeAll(async () => {
  t = await buildTestApp();
  factory = factories(t);
});
afterAll(() => t.close());

function expectFieldError(
  res: LightMyRequestResponse,
  field: string,
  message = controlCharacterMessage,
) {
  expect(res.statusCode, res.body).toBe(400);
  expect(res.headers['content-type']).toContain(problemContentType);
  expect(res.json()).toMatchObject({ status: 400, errors: { [field]: [message] } });
}

/** An appointment without alerts, carrying `note`. */
const appointmentWith = (note: string) => ({
  appointment_date: '2030-01-01T10:00:00Z',
  note,
  email_alert: false,
  sms_alert: false,
  alert_before: [],
});

describe('control characters in text fields', () => {
  it('refuses a NUL in the login e-mail with a field error, not a server error', async () => {
    const res = await t.request('POST', accountPaths.login, {
      body: { login_type: 'native', email: 'someone\u0000@example.com', password: 'whatever1' },
    });
    expectFieldError(res, 'email');
  });

  it('refuses control characters in the name and changes nothing', async () => {
    const member = await factory.loggedInMember({ username: 'Before' });
    const token = member.tokens.access;
    for (const username of [
      'Mallory\u0000',
      'Line\nbreak',
      'Tab\there',
      'Bell\u0007',
      'C1\u0085',
    ]) {
      expectFieldError(
        await t.request('PUT', accountPaths.account, { token, body: { username } }),
        'username',
      );
    }
    const after = await t.request('GET', accountPaths.account, { token });
    expect(after.json()).toMatchObject({ username: 'Before' });
  });

  it.each([
    [
      'a NUL',
      'line breaks and tabs',
      'Bring\u0000 x-rays',
      controlCharacterMessage,
      'First line\nsecond line\twith a tab',
    ],
    [
      'a right-to-left override',
      'a right-to-left mark',
      'Bring \u202Efdp.exe',
      textDirectionMessage,
      'מספר\u200F 12\nsecond line',
    ],
  ])(
    'refuses %s in a note but keeps %s in it',
    async (_refusedName, _keptName, refused, message, kept) => {
      const member = await factory.loggedInMember();
      const token = member.tokens.access;
      expectFieldError(
        await t.request('POST', appointmentPaths.list, { token, body: appointmentWith(refused) }),
        'note',
        message,
      );
      expect((await t.request('GET', appointmentPaths.list, { token })).json()).toEqual([]);

      const saved = await t.request('POST', appointmentPaths.list, {
        token,
        body: appointmentWith(kept),
      });
      expect(saved.statusCode, saved.body).toBe(201);
      expect(saved.json()).toMatchObject({ note: kept });
    },
  );

  it('refuses a NUL in record titles and photo notes', async () => {
    const member = await factory.loggedInMember();
    const token = member.tokens.access;
    const record = await t.request('POST', medicalRecordPaths.list, {
      token,
      body: { title: 'Check\u0000up', record_date: '2026-03-01', note: '', medical_files: [] },
    });
    expectFieldError(record, 'title');
    const photo = await t.request('POST', oralPhotoPaths.list, {
      token,
      body: {
        shoot_date: '2026-03-01',
        photo_type: 'Photo',
        note: 'x\u0000',
        image_link: 'data:image/png;base64,AAAA',
      },
    });
    expectFieldError(photo, 'note');
  });
});

describe('text-direction characters (docs/decisions/text-direction-characters.md)', () => {
  it('refuses a right-to-left override in the name, which other members see, and changes nothing', async () => {
    const member = await factory.loggedInMember({ username: 'Sam' });
    const token = member.tokens.access;
    for (const username of ['Sam\u202Efdp.exe', 'Sam\u2067x', 'Sam\u200F']) {
      expectFieldError(
        await t.request('PUT', accountPaths.account, { token, body: { username } }),
        'username',
        textDirectionMessage,
      );
    }
    const after = await t.request('GET', accountPaths.account, { token });
    expect(after.json()).toMatchObject({ username: 'Sam' });
  });
});

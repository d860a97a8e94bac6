import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accountPaths,
  appointmentPaths,
  controlCharacterMessage,
  medicalRecordPaths,
  oralPhotoPaths,
  problemContentType,
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

function expectFieldError(res: LightMyRequestResponse, field: string) {
  expect(res.statusCode, res.body).toBe(400);
  expect(res.headers['content-type']).toContain(problemContentType);
  expect(res.json()).toMatchObject({ status: 400, errors: { [field]: [controlCharacterMessage] } });
}

describe('control characters in text fields (issue 11)', () => {
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

  it('refuses a NUL in a note but keeps line breaks and tabs in it', async () => {
    const member = await factory.loggedInMember();
    const token = member.tokens.access;
    const body = (note: string) => ({
      appointment_date: '2030-01-01T10:00:00Z',
      note,
      email_alert: false,
      sms_alert: false,
      alert_before: [],
    });
    expectFieldError(
      await t.request('POST', appointmentPaths.list, { token, body: body('Bring\u0000 x-rays') }),
      'note',
    );
    expect((await t.request('GET', appointmentPaths.list, { token })).json()).toEqual([]);

    const kept = await t.request('POST', appointmentPaths.list, {
      token,
      body: body('First line\nsecond line\twith a tab'),
    });
    expect(kept.statusCode, kept.body).toBe(201);
    expect(kept.json()).toMatchObject({ note: 'First line\nsecond line\twith a tab' });
  });

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

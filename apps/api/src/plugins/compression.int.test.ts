import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accountPaths,
  appointmentNoteMaxLength,
  appointmentPaths,
  configPath,
  oralPhotoPaths,
  type Appointment,
  type OralPhoto,
} from '@dental/contracts';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories } from '#api-test/factories';
import { dataUrlOf, makePng } from '#api-test/fixtures/upload-test-files';
import { fetchLink } from '#api-test/support/files';
import { compressedTypes, compressionThresholdBytes } from './compression';

let t: TestApp;
let factory: ReturnType<typeof factories>;

beforeAll(async () => {
  t = await buildTestApp();
  factory = factories(t);
});
afterAll(() => t.close());

type Member = Awaited<ReturnType<ReturnType<typeof factories>['loggedInMember']>>;

/** An appointment whose answer alone is over the threshold. */
const longAppointment = (day: number) => ({
  appointment_date: `2030-05-${String(day).padStart(2, '0')}T09:00:00Z`,
  note: 'Bring the X-rays. '.repeat(50).slice(0, appointmentNoteMaxLength),
  email_alert: false,
  sms_alert: false,
  alert_before: [],
});

async function memberWithAppointments(count: number): Promise<Member> {
  const member = await factory.loggedInMember();
  for (let day = 1; day <= count; day += 1) {
    const res = await t.request('POST', appointmentPaths.list, {
      token: member.tokens.access,
      body: longAppointment(day),
    });
    expect(res.statusCode, res.body).toBe(201);
  }
  return member;
}

const get = (member: Member, url: string, acceptEncoding?: string) =>
  t.request('GET', url, {
    token: member.tokens.access,
    ...(acceptEncoding === undefined ? {} : { headers: { 'accept-encoding': acceptEncoding } }),
  });

describe('API answers are compressed for clients that accept it', () => {
  it('sends a JSON answer of 1 kB or more in Brotli, the same JSON once decoded', async () => {
    const member = await memberWithAppointments(3);
    const plain = await get(member, appointmentPaths.list);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(compressionThresholdBytes);

    const brotli = await get(member, appointmentPaths.list, 'gzip, deflate, br, zstd');
    expect(brotli.statusCode).toBe(200);
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers.vary).toMatch(/accept-encoding/i);
    expect(brotli.headers['cache-control']).toBe('no-store');
    expect(brotli.headers['content-type']).toBe(plain.headers['content-type']);
    const decoded = brotliDecompressSync(brotli.rawPayload);
    expect(brotli.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    expect(JSON.parse(decoded.toString())).toEqual(plain.json());
  });

  it('sends gzip to a client that accepts only gzip', async () => {
    const member = await memberWithAppointments(3);
    const res = await get(member, appointmentPaths.list, 'gzip');
    expect(res.headers['content-encoding']).toBe('gzip');
    const list = JSON.parse(gunzipSync(res.rawPayload).toString()) as Appointment[];
    expect(list).toHaveLength(3);
  });

  it('takes JSON and problems, and no other type', () => {
    expect(compressedTypes.test('application/json; charset=utf-8')).toBe(true);
    expect(compressedTypes.test('application/problem+json; charset=utf-8')).toBe(true);
    for (const other of [
      'text/calendar; charset=utf-8',
      'application/pdf',
      'image/png',
      'text/html',
    ]) {
      expect(compressedTypes.test(other)).toBe(false);
    }
  });

  it('sends a small answer as it is', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: configPath,
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.length).toBeLessThan(compressionThresholdBytes);
    expect(res.headers['content-encoding']).toBeUndefined();
  });

  it('sends a stored file as it was stored', async () => {
    const member = await factory.loggedInMember();
    const created = await t.request('POST', oralPhotoPaths.list, {
      token: member.tokens.access,
      body: {
        shoot_date: '2026-03-01',
        photo_type: 'X-ray',
        note: '',
        image_link: dataUrlOf(await makePng(400, 300), 'image/png'),
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const photo = created.json<OralPhoto>();
    const plain = await fetchLink(t, photo.image_link);
    const asked = await t.app.inject({
      method: 'GET',
      url: photo.image_link,
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(asked.statusCode).toBe(200);
    expect(asked.headers['content-encoding']).toBeUndefined();
    expect(asked.rawPayload.equals(plain.rawPayload)).toBe(true);
  });

  it('replays an idempotent create asked compressed with the same answer', async () => {
    const member = await factory.loggedInMember();
    const send = () =>
      t.request('POST', appointmentPaths.list, {
        token: member.tokens.access,
        headers: { 'idempotency-key': 'compressed-create', 'accept-encoding': 'br' },
        body: longAppointment(7),
      });
    const first = await send();
    const retry = await send();
    expect(first.statusCode).toBe(201);
    expect(first.headers['content-encoding']).toBe('br');
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(brotliDecompressSync(retry.rawPayload).toString()).toBe(
      brotliDecompressSync(first.rawPayload).toString(),
    );
    const list = await get(member, appointmentPaths.list);
    expect(list.json<Appointment[]>()).toHaveLength(1);
  });
});

describe('request bodies', () => {
  it('are never inflated: a gzip body is not read as JSON', async () => {
    const { email, password } = await factory.member();
    const res = await t.app.inject({
      method: 'POST',
      url: accountPaths.login,
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: gzipSync(JSON.stringify({ login_type: 'native', email, password })),
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expect(res.json<{ access?: string }>().access).toBeUndefined();
  });
});

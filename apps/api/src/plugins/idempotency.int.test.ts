import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import {
  appointmentPaths,
  medicalRecordPaths,
  membershipPaths,
  oralPhotoPaths,
  problemContentType,
} from '@dental/contracts';
import type { LightMyRequestResponse } from 'fastify';
import { appointments, medicalFiles, medicalRecords, oralPhotos } from '../db/schema';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories } from '#api-test/factories';
import { dataUrlOf, makePng } from '#api-test/fixtures/upload-test-files';
import { membershipHelpers } from '#api-test/support/membership';
import {
  idempotencyKeyInFlightMessage,
  idempotencyKeyLifetimeMs,
  idempotencyKeyReusedMessage,
} from './idempotency';

let t: TestApp;
let factory: ReturnType<typeof factories>;
let png: string;

beforeAll(async () => {
  t = await buildTestApp();
  factory = factories(t);
  png = dataUrlOf(await makePng(), 'image/png');
});
afterAll(() => t.close());

type Member = Awaited<ReturnType<ReturnType<typeof factories>['loggedInMember']>>;

const post = (member: Member, url: string, body: unknown, key?: string) =>
  t.request('POST', url, {
    token: member.tokens.access,
    body,
    ...(key === undefined ? {} : { headers: { 'idempotency-key': key } }),
  });

const appointmentBody = (note = 'Check-up') => ({
  appointment_date: '2030-05-01T09:00:00Z',
  note,
  email_alert: false,
  sms_alert: false,
  alert_before: [],
});

async function appointmentsOf(member: Member): Promise<number> {
  const [row] = await t.db
    .select({ n: count() })
    .from(appointments)
    .where(eq(appointments.userId, member.id));
  return row?.n ?? 0;
}

function expectReplay(first: LightMyRequestResponse, retry: LightMyRequestResponse) {
  expect(retry.statusCode).toBe(first.statusCode);
  expect(retry.body).toBe(first.body);
  expect(retry.headers['content-type']).toBe(first.headers['content-type']);
  expect(retry.headers['idempotent-replayed']).toBe('true');
}

describe('Idempotency-Key on create requests', () => {
  it('answers a retry with the first answer and creates nothing new', async () => {
    const member = await factory.loggedInMember();
    const first = await post(member, appointmentPaths.list, appointmentBody(), 'key-1');
    expect(first.statusCode, first.body).toBe(201);
    const retry = await post(member, appointmentPaths.list, appointmentBody(), 'key-1');
    expectReplay(first, retry);
    expect(await appointmentsOf(member)).toBe(1);
    // Without a key, or with another one, each request creates.
    expect((await post(member, appointmentPaths.list, appointmentBody())).statusCode).toBe(201);
    expect((await post(member, appointmentPaths.list, appointmentBody(), 'key-2')).statusCode).toBe(
      201,
    );
    expect(await appointmentsOf(member)).toBe(3);
  });

  it('refuses the same key with a different request and changes nothing', async () => {
    const member = await factory.loggedInMember();
    await post(member, appointmentPaths.list, appointmentBody('First'), 'same');
    const res = await post(member, appointmentPaths.list, appointmentBody('Second'), 'same');
    expect(res.statusCode).toBe(422);
    expect(res.headers['content-type']).toContain(problemContentType);
    expect(res.json()).toMatchObject({ detail: idempotencyKeyReusedMessage });
    expect(await appointmentsOf(member)).toBe(1);
  });

  it('keeps keys per member', async () => {
    const ann = await factory.loggedInMember();
    const bob = await factory.loggedInMember();
    const first = await post(ann, appointmentPaths.list, appointmentBody(), 'shared');
    const other = await post(bob, appointmentPaths.list, appointmentBody(), 'shared');
    expect(other.statusCode).toBe(201);
    expect(other.headers['idempotent-replayed']).toBeUndefined();
    expect(other.json<{ id: string }>().id).not.toBe(first.json<{ id: string }>().id);
    expect(await appointmentsOf(bob)).toBe(1);
  });

  it('forgets a key after 24 hours', async () => {
    const member = await factory.loggedInMember();
    await post(member, appointmentPaths.list, appointmentBody(), 'daily');
    t.clock.advance(idempotencyKeyLifetimeMs - 1000);
    // The access token of the first request has long expired: the retry signs in again.
    const later = { ...member, tokens: await factory.login(member) };
    const within = await post(later, appointmentPaths.list, appointmentBody(), 'daily');
    expect(within.headers['idempotent-replayed']).toBe('true');
    t.clock.advance(2000);
    const after = await post(later, appointmentPaths.list, appointmentBody(), 'daily');
    expect(after.statusCode).toBe(201);
    expect(after.headers['idempotent-replayed']).toBeUndefined();
    expect(await appointmentsOf(member)).toBe(2);
  });

  it('lets a corrected retry use the key of an invalid request, and refuses a malformed key', async () => {
    const member = await factory.loggedInMember();
    const bad = { ...appointmentBody(), appointment_date: 'tomorrow' };
    expect((await post(member, appointmentPaths.list, bad, 'fix-me')).statusCode).toBe(400);
    const fixed = await post(member, appointmentPaths.list, appointmentBody(), 'fix-me');
    expect(fixed.statusCode).toBe(201);
    expect(await appointmentsOf(member)).toBe(1);
    const res = await post(member, appointmentPaths.list, appointmentBody(), 'has space');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ errors: { 'Idempotency-Key': [expect.any(String)] } });
    expect(await appointmentsOf(member)).toBe(1);
  });

  it('creates once when two requests with one key arrive together', async () => {
    const member = await factory.loggedInMember();
    const answers = await Promise.all(
      [1, 2, 3].map(() => post(member, appointmentPaths.list, appointmentBody(), 'together')),
    );
    expect(await appointmentsOf(member)).toBe(1);
    const created = answers.filter((res) => res.statusCode === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((res) => res.json<{ id: string }>().id)).size).toBe(1);
    for (const res of answers.filter((answer) => answer.statusCode !== 201)) {
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ detail: idempotencyKeyInFlightMessage });
    }
  });

  it('covers photos, records, record files and plan choices', async () => {
    const member = await factory.loggedInMember();
    const photo = { shoot_date: '2026-03-01', photo_type: 'Photo', note: '', image_link: png };
    const photoFirst = await post(member, oralPhotoPaths.list, photo, 'photo');
    expect(photoFirst.statusCode, photoFirst.body).toBe(201);
    expectReplay(photoFirst, await post(member, oralPhotoPaths.list, photo, 'photo'));

    const record = { title: 'Cleaning', record_date: '2026-03-01', note: '', medical_files: [] };
    const recordFirst = await post(member, medicalRecordPaths.list, record, 'record');
    expect(recordFirst.statusCode, recordFirst.body).toBe(201);
    expectReplay(recordFirst, await post(member, medicalRecordPaths.list, record, 'record'));

    const recordId = recordFirst.json<{ id: string }>().id;
    const file = { file_name: 'scan.png', file_link: png };
    const fileFirst = await post(member, medicalRecordPaths.files(recordId), file, 'file');
    expect(fileFirst.statusCode, fileFirst.body).toBeLessThan(300);
    expectReplay(fileFirst, await post(member, medicalRecordPaths.files(recordId), file, 'file'));

    const plan = { memberId: member.id, selectedPlan: 'Gold' };
    const planFirst = await post(member, membershipPaths.choosePlan, plan, 'plan');
    expect(planFirst.statusCode, planFirst.body).toBe(200);
    expectReplay(planFirst, await post(member, membershipPaths.choosePlan, plan, 'plan'));

    const rows = async (table: typeof oralPhotos | typeof medicalRecords) =>
      (await t.db.select({ n: count() }).from(table).where(eq(table.userId, member.id)))[0]?.n;
    expect(await rows(oralPhotos)).toBe(1);
    expect(await rows(medicalRecords)).toBe(1);
    const files = await t.db
      .select({ n: count() })
      .from(medicalFiles)
      .where(eq(medicalFiles.recordId, recordId));
    expect(files[0]?.n).toBe(1);
    expect(await membershipHelpers(t).paymentsOf(member.id)).toHaveLength(1);
  });
});

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { eq, isNull, sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accountPaths,
  activityPage,
  appointmentPaths,
  auditPaths,
  consultationPaths,
  dataExportPaths,
  delegationPaths,
  dentalAiPaths,
  medicalRecordPaths,
  membershipPaths,
  oralPhotoPaths,
  reservationDetail,
  secondFactorPaths,
  sessionPaths,
  shareLinkPaths,
  sharePasscodeHeader,
  type Account,
  type ActivityEntry,
  type MedicalRecord,
  type MfaChallenge,
  type RecoveryCodes,
  type OralPhoto,
  type ShareLinkCreated,
  type TokenHandoff,
  type TokenPair,
} from '@dental/contracts';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories, strongPassword } from '#api-test/factories';
import { writeFixtureModel } from '#api-test/fixtures/fixture-model';
import { dataUrlOf, makePdf, makePng } from '#api-test/fixtures/upload-test-files';
import { dicomDataUrl, makeDicom } from '#api-test/fixtures/dicom-test-files';
import { clinicFor, setUpClinic, slotAfter } from '#api-test/support/consultation';
import { startSmtpInbox, type SmtpInbox } from '#api-test/smtp-inbox';
import { startSocialProviders, type SocialProviders } from '#api-test/support/social-providers';
import { runAuditCommand } from '#api/cli/audit';
import { databaseTarget, openDatabase, rowsOf as resultRows } from '#api/db/client';
import { auditEvents } from '#api/db/schema';
import { filesPath } from '#api/lib/signed-links';
import { AuditRepository } from './audit.repository';
import { AuditService } from './audit.service';

const execFileAsync = promisify(execFile);
const repoRoot = fileURLToPath(new URL('../../../../../', import.meta.url));

let t: TestApp;
let factory: ReturnType<typeof factories>;
let inbox: SmtpInbox;
let providers: SocialProviders;
let modelDir: string;
let png: string;
let pdf: string;

beforeAll(async () => {
  inbox = await startSmtpInbox();
  providers = await startSocialProviders();
  modelDir = await mkdtemp(path.join(os.tmpdir(), 'audit-model-'));
  const model = path.join(modelDir, 'caries.onnx');
  await writeFixtureModel(model);
  t = await buildTestApp({
    env: {
      ...providers.env,
      SMTP_URL: inbox.url,
      DENTAL_AI_MODEL_CARIES: model,
      DENTAL_AI_MODEL_CARIES_PHOTO: model,
      DENTAL_AI_SHIPPED_MODELS: 'off',
    },
  });
  factory = factories(t);
  png = dataUrlOf(await makePng(), 'image/png');
  pdf = dataUrlOf(makePdf(), 'application/pdf');
});
afterAll(async () => {
  await t.close();
  await inbox.close();
  await providers.close();
  await rm(modelDir, { recursive: true, force: true });
});

type Member = Awaited<ReturnType<typeof factory.loggedInMember>>;

const browser = 'Mozilla/5.0 (audit test)';

function as(member: Member) {
  return { token: member.tokens.access, headers: { 'user-agent': browser } };
}

/** Fetches a signed link as the member's browser would: no bearer header. */
async function download(member: Member, link: string) {
  const res = await t.app.inject({ method: 'GET', url: link, headers: { 'user-agent': browser } });
  expect(res.statusCode).toBe(200);
  expect(await newestOf(member.id)).toMatchObject({ actor: 'signed link' });
}

async function activity(member: Member, query = '') {
  const res = await t.request('GET', `${auditPaths.activity}${query}`, {
    token: member.tokens.access,
  });
  expect(res.statusCode, res.body).toBe(200);
  return activityPage.parse(res.json());
}

async function rowsOf(memberId: string) {
  return t.db.select().from(auditEvents).where(eq(auditEvents.memberId, memberId));
}

async function newestOf(memberId: string) {
  const [row] = await t.db
    .select()
    .from(auditEvents)
    .where(eq(auditEvents.memberId, memberId))
    .orderBy(sql`${auditEvents.seq} desc`)
    .limit(1);
  return row;
}

async function addPhoto(member: Member, note = 'Lower left molar'): Promise<OralPhoto> {
  const res = await t.request('POST', oralPhotoPaths.list, {
    ...as(member),
    body: { shoot_date: '2026-03-01', photo_type: 'X-ray', note, image_link: png },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<OralPhoto>();
}

async function addRecord(member: Member): Promise<MedicalRecord> {
  const res = await t.request('POST', medicalRecordPaths.list, {
    ...as(member),
    body: { title: 'Insurance card', record_date: '2026-04-02', note: 'x', medical_files: [] },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<MedicalRecord>();
}

async function inviteDelegate(owner: Member, email: string): Promise<string> {
  const res = await t.request('POST', delegationPaths.delegates, { ...as(owner), body: { email } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ id: string }>().id;
}

/** A member named Sam who accepted the owner's invitation. */
async function delegateOf(owner: Member) {
  const delegate = await factory.loggedInMember({ username: 'Sam' });
  const grant = await inviteDelegate(owner, delegate.email);
  expect((await t.request('POST', delegationPaths.accept(grant), as(delegate))).statusCode).toBe(
    200,
  );
  return { grant, delegate };
}

interface Expected {
  action: string;
  resource_type: string;
  resource_id: string | null;
  result: 'success' | 'failure';
}

/**
 * Each audited health-data route: what to set up, the one request, and the row it must add to
 * the member's chain.
 */
const healthDataCases: {
  name: string;
  run: (member: Member) => Promise<Expected>;
}[] = [
  {
    name: 'list photos',
    async run(member) {
      const res = await t.request('GET', oralPhotoPaths.list, as(member));
      expect(res.statusCode).toBe(200);
      return {
        action: 'read',
        resource_type: 'oral_photo_list',
        resource_id: null,
        result: 'success',
      };
    },
  },
  {
    name: 'create an X-ray',
    async run(member) {
      const photo = await addPhoto(member);
      return { action: 'create', resource_type: 'x_ray', resource_id: photo.id, result: 'success' };
    },
  },
  {
    name: 'open an X-ray',
    async run(member) {
      const photo = await addPhoto(member);
      expect((await t.request('GET', oralPhotoPaths.one(photo.id), as(member))).statusCode).toBe(
        200,
      );
      return { action: 'read', resource_type: 'x_ray', resource_id: photo.id, result: 'success' };
    },
  },
  {
    name: 'change a photo',
    async run(member) {
      const photo = await addPhoto(member);
      const res = await t.request('PUT', oralPhotoPaths.one(photo.id), {
        ...as(member),
        body: { shoot_date: '2026-03-02', photo_type: 'Photo', note: '' },
      });
      expect(res.statusCode, res.body).toBe(200);
      return { action: 'change', resource_type: 'photo', resource_id: photo.id, result: 'success' };
    },
  },
  {
    name: 'delete a photo',
    async run(member) {
      const photo = await addPhoto(member);
      expect((await t.request('DELETE', oralPhotoPaths.one(photo.id), as(member))).statusCode).toBe(
        204,
      );
      return {
        action: 'delete',
        resource_type: 'oral_photo',
        resource_id: photo.id,
        result: 'success',
      };
    },
  },
  {
    name: 'import a DICOM X-ray, then download its original DICOM file',
    async run(member) {
      const res = await t.request('POST', oralPhotoPaths.list, {
        ...as(member),
        body: {
          image_link: dicomDataUrl(
            makeDicom({ width: 2, height: 2, values: [0, 1, 2, 3], studyDate: '20250101' }),
          ),
        },
      });
      expect(res.statusCode, res.body).toBe(201);
      const photo = res.json<OralPhoto>();
      await download(member, photo.original_link ?? '');
      return {
        action: 'download',
        resource_type: 'x_ray',
        resource_id: photo.id,
        result: 'success',
      };
    },
  },
  {
    name: 'fetch an X-ray through its signed link',
    async run(member) {
      const photo = await addPhoto(member);
      await download(member, photo.image_link);
      return {
        action: 'download',
        resource_type: 'x_ray',
        resource_id: photo.id,
        result: 'success',
      };
    },
  },
  {
    name: 'list records',
    async run(member) {
      expect((await t.request('GET', medicalRecordPaths.list, as(member))).statusCode).toBe(200);
      return {
        action: 'read',
        resource_type: 'medical_record_list',
        resource_id: null,
        result: 'success',
      };
    },
  },
  {
    name: 'create a record',
    async run(member) {
      const record = await addRecord(member);
      return {
        action: 'create',
        resource_type: 'medical_record',
        resource_id: record.id,
        result: 'success',
      };
    },
  },
  {
    name: 'open a record',
    async run(member) {
      const record = await addRecord(member);
      expect(
        (await t.request('GET', medicalRecordPaths.one(record.id), as(member))).statusCode,
      ).toBe(200);
      return {
        action: 'read',
        resource_type: 'medical_record',
        resource_id: record.id,
        result: 'success',
      };
    },
  },
  {
    name: 'change a record',
    async run(member) {
      const record = await addRecord(member);
      const res = await t.request('PUT', medicalRecordPaths.one(record.id), {
        ...as(member),
        body: { title: 'Card', record_date: '2026-04-03', note: '' },
      });
      expect(res.statusCode, res.body).toBe(200);
      return {
        action: 'change',
        resource_type: 'medical_record',
        resource_id: record.id,
        result: 'success',
      };
    },
  },
  {
    name: 'delete a record',
    async run(member) {
      const record = await addRecord(member);
      expect(
        (await t.request('DELETE', medicalRecordPaths.one(record.id), as(member))).statusCode,
      ).toBe(204);
      return {
        action: 'delete',
        resource_type: 'medical_record',
        resource_id: record.id,
        result: 'success',
      };
    },
  },
  {
    name: 'attach a file to a record',
    async run(member) {
      const record = await addRecord(member);
      const res = await t.request('POST', medicalRecordPaths.files(record.id), {
        ...as(member),
        body: { file_name: 'claim.pdf', file_link: pdf },
      });
      expect(res.statusCode, res.body).toBe(201);
      const file = res.json<{ id: string }>();
      return {
        action: 'create',
        resource_type: 'medical_file',
        resource_id: file.id,
        result: 'success',
      };
    },
  },
  {
    name: 'download a medical file through its signed link',
    async run(member) {
      const record = await addRecord(member);
      const res = await t.request('POST', medicalRecordPaths.files(record.id), {
        ...as(member),
        body: { file_name: 'claim.pdf', file_link: pdf },
      });
      const file = res.json<{ id: string; file_link: string }>();
      await download(member, file.file_link);
      return {
        action: 'download',
        resource_type: 'medical_file',
        resource_id: file.id,
        result: 'success',
      };
    },
  },
  {
    name: 'remove a file from a record',
    async run(member) {
      const record = await addRecord(member);
      const res = await t.request('POST', medicalRecordPaths.files(record.id), {
        ...as(member),
        body: { file_name: 'claim.pdf', file_link: pdf },
      });
      const file = res.json<{ id: string }>();
      const removed = await t.request(
        'DELETE',
        medicalRecordPaths.file(record.id, file.id),
        as(member),
      );
      expect(removed.statusCode).toBe(204);
      return {
        action: 'delete',
        resource_type: 'medical_file',
        resource_id: file.id,
        result: 'success',
      };
    },
  },
  {
    name: 'create, open, change, list and delete an appointment',
    async run(member) {
      const body = { appointment_date: '2030-03-15T08:00:00Z', note: 'Check-up' };
      const created = await t.request('POST', appointmentPaths.list, { ...as(member), body });
      expect(created.statusCode, created.body).toBe(201);
      const { id } = created.json<{ id: string }>();
      expect(await newestOf(member.id)).toMatchObject({ action: 'create', resourceId: id });
      expect((await t.request('GET', appointmentPaths.one(id), as(member))).statusCode).toBe(200);
      expect(await newestOf(member.id)).toMatchObject({ action: 'read', resourceId: id });
      expect(
        (await t.request('PUT', appointmentPaths.one(id), { ...as(member), body })).statusCode,
      ).toBe(200);
      expect(await newestOf(member.id)).toMatchObject({ action: 'change', resourceId: id });
      expect((await t.request('GET', appointmentPaths.list, as(member))).statusCode).toBe(200);
      expect(await newestOf(member.id)).toMatchObject({
        action: 'read',
        resourceType: 'appointment_list',
      });
      expect((await t.request('DELETE', appointmentPaths.one(id), as(member))).statusCode).toBe(
        204,
      );
      return { action: 'delete', resource_type: 'appointment', resource_id: id, result: 'success' };
    },
  },
  {
    name: 'run Dental AI, open and list the results, delete one',
    async run(member) {
      const res = await t.request('POST', dentalAiPaths.root, {
        ...as(member),
        body: { image_url: png },
      });
      expect(res.statusCode, res.body).toBe(201);
      const { id } = res.json<{ id: string }>();
      expect(await newestOf(member.id)).toMatchObject({
        action: 'create',
        resourceType: 'dental_ai_result',
        resourceId: id,
      });
      expect((await t.request('GET', dentalAiPaths.result(id), as(member))).statusCode).toBe(200);
      expect(await newestOf(member.id)).toMatchObject({
        action: 'read',
        resourceType: 'dental_ai_result',
        resourceId: id,
      });
      expect((await t.request('GET', dentalAiPaths.results, as(member))).statusCode).toBe(200);
      expect(await newestOf(member.id)).toMatchObject({
        action: 'read',
        resourceType: 'dental_ai_result_list',
      });
      expect((await t.request('DELETE', dentalAiPaths.result(id), as(member))).statusCode).toBe(
        204,
      );
      return {
        action: 'delete',
        resource_type: 'dental_ai_result',
        resource_id: id,
        result: 'success',
      };
    },
  },
  {
    name: 'ask for a copy of all data and read its state; the list adds no row',
    async run(member) {
      const res = await t.request('POST', dataExportPaths.root, as(member));
      expect(res.statusCode, res.body).toBe(202);
      const { id } = res.json<{ id: string }>();
      expect(await newestOf(member.id)).toMatchObject({
        action: 'create',
        resourceType: 'data_export',
        resourceId: id,
      });
      // The Profile's list, read on every visit, adds no row.
      expect((await t.request('GET', dataExportPaths.root, as(member))).statusCode).toBe(200);
      expect(await newestOf(member.id)).toMatchObject({ action: 'create', resourceId: id });
      expect((await t.request('GET', dataExportPaths.one(id), as(member))).statusCode).toBe(200);
      return { action: 'read', resource_type: 'data_export', resource_id: id, result: 'success' };
    },
  },
  {
    name: 'book, list, open, read an answer of and cancel a consultation',
    async run(member) {
      const clinic = clinicFor(t.db, t.services.blobs, t.clock);
      const setup = await setUpClinic(clinic);
      const created = await t.request('POST', consultationPaths.reservations, {
        ...as(member),
        body: {
          doctor: setup.doctorId,
          reservation_time: slotAfter(t.clock.now(), 4).toISOString(),
          timezone: 'Europe/Paris',
          answers: setup.questionIds.map((question) => ({ question, answer: 'Toothache' })),
        },
      });
      expect(created.statusCode, created.body).toBe(201);
      const reservation = reservationDetail.parse(created.json());
      expect(await newestOf(member.id)).toMatchObject({
        action: 'create',
        resourceType: 'reservation',
        resourceId: reservation.id,
      });
      expect(
        (await t.request('GET', `${consultationPaths.reservations}?period=future`, as(member)))
          .statusCode,
      ).toBe(200);
      expect(await newestOf(member.id)).toMatchObject({
        action: 'read',
        resourceType: 'reservation_list',
        resourceId: null,
      });
      expect(
        (await t.request('GET', consultationPaths.reservation(reservation.id), as(member)))
          .statusCode,
      ).toBe(200);
      expect(await newestOf(member.id)).toMatchObject({
        action: 'read',
        resourceType: 'reservation',
        resourceId: reservation.id,
      });
      const answerId = reservation.answers[0]?.id ?? '';
      expect(
        (await t.request('GET', consultationPaths.answer(answerId), as(member))).statusCode,
      ).toBe(200);
      expect(await newestOf(member.id)).toMatchObject({
        action: 'read',
        resourceType: 'consultation_answers',
        resourceId: answerId,
      });
      const deleted = await t.request(
        'DELETE',
        consultationPaths.reservation(reservation.id),
        as(member),
      );
      expect(deleted.statusCode, deleted.body).toBe(204);
      return {
        action: 'delete',
        resource_type: 'reservation',
        resource_id: reservation.id,
        result: 'success',
      };
    },
  },
  {
    name: 'invite someone to view my record',
    async run(member) {
      const id = await inviteDelegate(member, 'audit-invitee@example.com');
      return {
        action: 'delegate_invite',
        resource_type: 'delegation',
        resource_id: id,
        result: 'success',
      };
    },
  },
  {
    name: 'a delegate accepts the invitation',
    async run(member) {
      const { grant, delegate } = await delegateOf(member);
      const page = await activity(member, '?limit=1');
      expect(page.results[0]?.actor_member).toEqual({ id: delegate.id, username: 'Sam' });
      return {
        action: 'delegate_accept',
        resource_type: 'delegation',
        resource_id: grant,
        result: 'success',
      };
    },
  },
  {
    name: 'a delegate views my photos and X-rays, then opens an X-ray (my chain, the delegate acting)',
    async run(member) {
      const photo = await addPhoto(member);
      const { delegate } = await delegateOf(member);
      const delegateRows = (await rowsOf(delegate.id)).length;
      const list = await t.request(
        'GET',
        `${oralPhotoPaths.list}?member=${member.id}`,
        as(delegate),
      );
      expect(list.statusCode).toBe(200);
      expect(await newestOf(member.id)).toMatchObject({
        actor: delegate.id,
        action: 'read',
        resourceType: 'oral_photo_list',
      });
      const one = await t.request(
        'GET',
        `${oralPhotoPaths.one(photo.id)}?member=${member.id}`,
        as(delegate),
      );
      expect(one.statusCode).toBe(200);
      // Nothing of it lands in the delegate's own chain.
      expect(await rowsOf(delegate.id)).toHaveLength(delegateRows);
      return { action: 'read', resource_type: 'x_ray', resource_id: photo.id, result: 'success' };
    },
  },
  {
    name: 'revoke a delegate',
    async run(member) {
      const { grant } = await delegateOf(member);
      expect((await t.request('DELETE', delegationPaths.one(grant), as(member))).statusCode).toBe(
        204,
      );
      return {
        action: 'delegate_revoke',
        resource_type: 'delegation',
        resource_id: grant,
        result: 'success',
      };
    },
  },
  {
    name: 'a delegate stops viewing my record',
    async run(member) {
      const { grant, delegate } = await delegateOf(member);
      expect((await t.request('DELETE', delegationPaths.one(grant), as(delegate))).statusCode).toBe(
        204,
      );
      return {
        action: 'delegate_leave',
        resource_type: 'delegation',
        resource_id: grant,
        result: 'success',
      };
    },
  },
  {
    name: 'try to open a summary that is not there',
    async run(member) {
      const id = randomUUID();
      expect((await t.request('GET', consultationPaths.complaint(id), as(member))).statusCode).toBe(
        404,
      );
      return {
        action: 'read',
        resource_type: 'consultation_summary',
        resource_id: id,
        result: 'failure',
      };
    },
  },
  {
    name: 'share an X-ray by link',
    async run(member) {
      const link = await shareAnXray(member);
      return {
        action: 'create',
        resource_type: 'share_link',
        resource_id: link.id,
        result: 'success',
      };
    },
  },
  {
    name: 'revoke a share link',
    async run(member) {
      const link = await shareAnXray(member);
      const res = await t.request('DELETE', shareLinkPaths.one(link.id), as(member));
      expect(res.statusCode, res.body).toBe(204);
      return {
        action: 'delete',
        resource_type: 'share_link',
        resource_id: link.id,
        result: 'success',
      };
    },
  },
  {
    name: 'a share link opened by its recipient (in the owner’s chain)',
    async run(member) {
      const link = await shareAnXray(member);
      const res = await t.app.inject({
        method: 'GET',
        url: shareLinkPaths.shared(link.token),
        headers: { 'user-agent': browser },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(await newestOf(member.id)).toMatchObject({ actor: `share_link:${link.id}` });
      return {
        action: 'read',
        resource_type: 'share_link',
        resource_id: link.id,
        result: 'success',
      };
    },
  },
  {
    name: 'a share link tried with a wrong passcode',
    async run(member) {
      const link = await shareAnXray(member, 'molar-42');
      const res = await t.app.inject({
        method: 'GET',
        url: shareLinkPaths.shared(link.token),
        headers: { 'user-agent': browser, [sharePasscodeHeader]: 'wrong' },
      });
      expect(res.statusCode).toBe(401);
      expect(await newestOf(member.id)).toMatchObject({ actor: `share_link:${link.id}` });
      return {
        action: 'read',
        resource_type: 'share_link',
        resource_id: link.id,
        result: 'failure',
      };
    },
  },
];

/** A share link of one new X-ray of the member. */
async function shareAnXray(member: Member, passcode?: string): Promise<ShareLinkCreated> {
  const photo = await addPhoto(member);
  const res = await t.request('POST', shareLinkPaths.list, {
    ...as(member),
    body: {
      photos: [photo.id],
      expires_in_hours: 24,
      label: 'For Dr. Patel',
      ...(passcode === undefined ? {} : { passcode }),
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<ShareLinkCreated>();
}

describe('every read, create, change and delete of health data writes a row', () => {
  it.each(healthDataCases)('$name', async ({ run }) => {
    const member = await factory.loggedInMember();
    const expected = await run(member);
    const page = await activity(member, '?limit=1');
    expect(page.results[0]).toMatchObject({ ...expected, ip: '127.0.0.1', user_agent: browser });
  });

  it('records a stored file that fails its integrity check as a failed download of its owner', async () => {
    const member = await factory.loggedInMember();
    const photo = await addPhoto(member);
    const key = decodeURIComponent(new URL(photo.image_link, 'http://app.test').pathname).slice(
      filesPath.length,
    );
    await writeFile(path.join(t.config.dataDir, 'blobs', key), 'not the photo');
    const res = await t.app.inject({ method: 'GET', url: photo.image_link });
    expect(res.statusCode).toBe(500);
    expect(await newestOf(member.id)).toMatchObject({
      actor: 'signed link',
      action: 'download',
      resourceType: 'x_ray',
      resourceId: photo.id,
      result: 'failure',
    });
  });

  it('records another member’s id as a failed read in the caller’s chain only', async () => {
    const owner = await factory.loggedInMember();
    const other = await factory.loggedInMember();
    const photo = await addPhoto(owner);
    const ownerRows = (await rowsOf(owner.id)).length;
    expect((await t.request('GET', oralPhotoPaths.one(photo.id), as(other))).statusCode).toBe(404);
    expect(await newestOf(other.id)).toMatchObject({
      actor: other.id,
      action: 'read',
      resourceId: photo.id,
      result: 'failure',
    });
    expect(await rowsOf(owner.id)).toHaveLength(ownerRows);
  });

  it('writes no row for a HEAD of a read: its answer carries nothing read', async () => {
    const member = await factory.loggedInMember();
    const rows = (await rowsOf(member.id)).length;
    const head = await t.app.inject({
      method: 'HEAD',
      url: oralPhotoPaths.list,
      headers: { authorization: `Bearer ${member.tokens.access}` },
    });
    expect(head.statusCode).toBe(200);
    expect(await rowsOf(member.id)).toHaveLength(rows);
  });

  it('writes no row for a request refused before sign-in, and keeps no id a caller typed', async () => {
    const member = await factory.loggedInMember();
    const before = await t.db.select({ n: sql<number>`count(*)::int` }).from(auditEvents);
    expect((await t.request('GET', oralPhotoPaths.list)).statusCode).toBe(401);
    const after = await t.db.select({ n: sql<number>`count(*)::int` }).from(auditEvents);
    expect(after).toEqual(before);
    expect(
      (await t.request('GET', `${oralPhotoPaths.list}not-an-id/`, as(member))).statusCode,
    ).toBe(400);
    expect(await newestOf(member.id)).toMatchObject({
      action: 'read',
      resourceId: null,
      result: 'failure',
    });
  });
});

describe('account events', () => {
  const post = (url: string, body: unknown) =>
    t.request('POST', url, { body, headers: { 'user-agent': browser } });

  it('sign-up, sign-in (new browser, then known), failure, refresh, hand-off, sign-out, reset and deactivation', async () => {
    const email = `audit-${randomUUID()}@example.com`;
    const password = strongPassword();
    const registered = await post(accountPaths.register, { email, username: 'Audit', password });
    expect(registered.statusCode).toBe(201);
    const memberId = registered.json<{ id: string }>().id;
    const step = async (expected: Partial<Record<string, unknown>>) => {
      expect(await newestOf(memberId)).toMatchObject(expected);
    };
    await step({ action: 'sign_up', actor: memberId, result: 'success' });

    const login = await post(accountPaths.login, { login_type: 'native', email, password });
    expect(login.statusCode).toBe(200);
    await step({
      action: 'sign_in_new_browser',
      actor: memberId,
      result: 'success',
      userAgent: browser,
    });
    const tokens = (
      await post(accountPaths.login, { login_type: 'native', email, password })
    ).json<TokenPair>();
    await step({ action: 'sign_in', result: 'success' });

    const wrong = await post(accountPaths.login, {
      login_type: 'native',
      email,
      password: `${password}x`,
    });
    expect(wrong.statusCode).toBe(401);
    await step({ action: 'sign_in', actor: 'anonymous', result: 'failure' });

    const refreshed = await post(accountPaths.refresh, { refresh: tokens.refresh });
    expect(refreshed.statusCode).toBe(200);
    await step({ action: 'refresh', actor: memberId, result: 'success' });
    const handedOff = await post(accountPaths.handoff, {
      refresh: refreshed.json<TokenPair>().refresh,
    });
    expect(handedOff.statusCode).toBe(200);
    await step({ action: 'session_handoff', actor: memberId, result: 'success' });
    const rotated = handedOff.json<TokenHandoff>();
    expect((await post(accountPaths.logout, { refresh: rotated.refresh })).statusCode).toBe(204);
    await step({ action: 'sign_out', result: 'success' });
    expect((await post(accountPaths.refresh, { refresh: rotated.refresh })).statusCode).toBe(401);
    await step({ action: 'refresh', actor: 'anonymous', result: 'failure' });

    expect((await post(accountPaths.forgetPassword, { email })).statusCode).toBe(200);
    await step({ action: 'password_reset_request', actor: 'anonymous', result: 'success' });
    const mail = await inbox.waitForMessageTo(email);
    const key = /key=([A-Za-z0-9_-]+)/.exec(mail.text ?? '')?.[1] ?? '';
    const newPassword = strongPassword();
    const reset = await post(accountPaths.updatePassword, { key, password: newPassword });
    expect(reset.statusCode, reset.body).toBe(200);
    await step({ action: 'password_reset', actor: memberId, result: 'success' });

    const again = (
      await post(accountPaths.login, { login_type: 'native', email, password: newPassword })
    ).json<TokenPair>();
    const confirm = (password: string) =>
      t.request('POST', accountPaths.reauthenticate, {
        token: again.access,
        body: { password },
        headers: { 'user-agent': browser },
      });
    expect((await confirm(`${newPassword}x`)).statusCode).toBe(400);
    await step({ action: 'reauthenticate', actor: memberId, result: 'failure' });
    expect((await confirm(newPassword)).statusCode).toBe(204);
    await step({ action: 'reauthenticate', actor: memberId, result: 'success' });
    const deactivated = await t.request('DELETE', accountPaths.account, {
      token: again.access,
      headers: { 'user-agent': browser },
    });
    expect(deactivated.statusCode).toBe(204);
    await step({
      action: 'deactivate',
      actor: memberId,
      resourceType: 'account',
      result: 'success',
    });
    expect(await t.services.audit.verify()).toMatchObject({ broken: [] });
  });

  it('keeps failed sign-ins of an unknown e-mail in the chain of no member', async () => {
    const email = `nobody-${randomUUID()}@example.com`;
    const res = await post(accountPaths.login, {
      login_type: 'native',
      email,
      password: 'Whatever-123',
    });
    expect(res.statusCode).toBe(401);
    const [row] = await t.db
      .select()
      .from(auditEvents)
      .where(isNull(auditEvents.memberId))
      .orderBy(sql`${auditEvents.seq} desc`)
      .limit(1);
    expect(row).toMatchObject({ actor: 'anonymous', action: 'sign_in', result: 'failure' });
    expect(JSON.stringify(row)).not.toContain(email);
  });

  it('records a new-device sign-in, signing out a device and the others, a password change', async () => {
    const member = await factory.member();
    const signIn = async (userAgent: string) => {
      const res = await t.request('POST', accountPaths.login, {
        body: { login_type: 'native', email: member.email, password: member.password },
        headers: { 'user-agent': userAgent },
      });
      return res.json<TokenPair>();
    };
    const current = await signIn(browser);
    const other = await signIn(
      'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
    );
    const [newDevice] = (await rowsOf(member.id)).filter(
      (row) => row.action === 'new_device_sign_in',
    );
    expect(newDevice).toMatchObject({ actor: member.id, resourceType: 'session' });
    const sessions = await t.request('GET', sessionPaths.sessions, { token: other.access });
    const otherId = sessions.json<{ id: string; current: boolean }[]>().find((s) => s.current)?.id;
    expect(newDevice?.resourceId).toBe(otherId);

    const mine = { token: current.access, headers: { 'user-agent': browser } };
    const ended = await t.request('DELETE', sessionPaths.session(otherId ?? ''), mine);
    expect(ended.statusCode).toBe(204);
    expect(await newestOf(member.id)).toMatchObject({
      action: 'sign_out_device',
      resourceId: otherId,
      result: 'success',
    });
    expect((await t.request('DELETE', sessionPaths.sessions, mine)).statusCode).toBe(204);
    expect(await newestOf(member.id)).toMatchObject({ action: 'sign_out_other_devices' });
    const password = strongPassword();
    const changed = await t.request('POST', sessionPaths.changePassword, {
      ...mine,
      body: { current_password: member.password, password, confirm_password: password },
    });
    expect(changed.statusCode).toBe(200);
    expect(await newestOf(member.id)).toMatchObject({
      action: 'password_change',
      actor: member.id,
      resourceType: 'account',
      result: 'success',
    });
  });

  it('records the second factor: on, a second step with a wrong code then a recovery code, off', async () => {
    const member = await factory.loggedInMember();
    const mine = as(member);
    const started = await t.request('POST', secondFactorPaths.totp, {
      ...mine,
      body: { password: member.password },
    });
    const secret = Secret.fromBase32(started.json<{ secret: string }>().secret);
    const codeNow = () => new TOTP({ secret }).generate({ timestamp: t.clock.now().getTime() });
    const confirmed = await t.request('POST', secondFactorPaths.confirmTotp, {
      ...mine,
      body: { code: codeNow() },
    });
    expect(await newestOf(member.id)).toMatchObject({
      action: 'second_factor_enable',
      actor: member.id,
      result: 'success',
    });

    const before = (await rowsOf(member.id)).length;
    const challenge = await t.request('POST', accountPaths.login, {
      body: { login_type: 'native', email: member.email, password: member.password },
      headers: { 'user-agent': browser },
    });
    // The right password alone is not a sign-in yet.
    expect(await rowsOf(member.id)).toHaveLength(before);
    const step = (code: string) =>
      t.request('POST', secondFactorPaths.loginWithCode, {
        body: { mfa_token: challenge.json<MfaChallenge>().mfa_token, code },
        headers: { 'user-agent': browser },
      });
    expect((await step('12345')).statusCode).toBe(400);
    expect(await newestOf(member.id)).toMatchObject({
      action: 'sign_in',
      actor: 'anonymous',
      result: 'failure',
    });
    const [recovery] = confirmed.json<RecoveryCodes>().recovery_codes;
    expect((await step(recovery ?? '')).statusCode).toBe(200);
    expect(await rowsOf(member.id)).toContainEqual(
      expect.objectContaining({ action: 'recovery_code_use', actor: member.id }),
    );
    // The second step is the sign-in (from a browser new to this member).
    expect(await newestOf(member.id)).toMatchObject({
      action: 'sign_in_new_browser',
      actor: member.id,
      result: 'success',
    });

    t.clock.advance(30_000);
    const removed = await t.request('DELETE', secondFactorPaths.totp, {
      ...mine,
      body: { password: member.password, code: codeNow() },
    });
    expect(removed.statusCode).toBe(204);
    expect(await newestOf(member.id)).toMatchObject({
      action: 'second_factor_disable',
      actor: member.id,
      result: 'success',
    });
  });

  it('records linking a Google account, signing in with it and unlinking it', async () => {
    const member = await factory.loggedInMember();
    const who = { sub: randomUUID(), email: `audit-${randomUUID()}@example.com` };
    const linked = await t.request('POST', accountPaths.socialMediaAccount, {
      ...as(member),
      body: { login_type: 'google', token: await providers.googleToken(who) },
    });
    expect(linked.statusCode, linked.body).toBe(200);
    expect(await newestOf(member.id)).toMatchObject({
      action: 'social_link',
      actor: member.id,
      resourceType: 'social_account',
      result: 'success',
    });

    const signIn = async () => {
      const res = await t.request('POST', accountPaths.login, {
        body: { login_type: 'google', token: await providers.googleToken(who) },
        headers: { 'user-agent': browser },
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    await signIn();
    await signIn();
    // The Google token names no e-mail the trail could go by: the session's member is the one.
    expect(await newestOf(member.id)).toMatchObject({
      action: 'sign_in',
      actor: member.id,
      resourceType: 'session',
      result: 'success',
    });

    const linkId = linked.json<Account>().google_account?.social_media_account ?? '';
    const unlinked = await t.request(
      'DELETE',
      `${accountPaths.socialMediaAccount}google/${linkId}/`,
      as(member),
    );
    expect(unlinked.statusCode, unlinked.body).toBe(200);
    expect(await newestOf(member.id)).toMatchObject({
      action: 'social_unlink',
      actor: member.id,
      resourceType: 'social_account',
      resourceId: linkId,
      result: 'success',
    });
  });

  it('records a plan purchase in the buyer’s chain', async () => {
    const member = await factory.loggedInMember();
    const chosen = await t.request('POST', membershipPaths.choosePlan, {
      token: member.tokens.access,
      body: { memberId: member.id, selectedPlan: 'Gold' },
    });
    const paymentId = chosen.json<{ id: string }>().id;
    const redirect = await t.request('GET', `${membershipPaths.checkout}?payment_id=${paymentId}`);
    const page = await t.request('GET', String(redirect.headers.location));
    const token = /name="token" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
    const paid = await t.request('POST', membershipPaths.testCheckoutPay, {
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': browser },
      body: new URLSearchParams({ payment_id: paymentId, token }).toString(),
    });
    expect(paid.statusCode).toBe(303);
    expect(await newestOf(member.id)).toMatchObject({
      action: 'plan_purchase',
      resourceType: 'membership',
      resourceId: paymentId,
      result: 'success',
      userAgent: browser,
    });
  });
});

describe('GET /api/account/activity/', () => {
  it('answers only the member’s own rows, newest first, a page at a time', async () => {
    const member = await factory.loggedInMember();
    const other = await factory.loggedInMember();
    const photos: string[] = [];
    for (let i = 0; i < 5; i++) photos.push((await addPhoto(member)).id);
    await addPhoto(other);

    const first = await activity(member, '?limit=2');
    expect(first.results.map((row) => row.resource_id)).toEqual([photos[4], photos[3]]);
    expect(first.next).not.toBeNull();
    const second = await activity(member, `?limit=2&cursor=${first.next ?? ''}`);
    expect(second.results.map((row) => row.resource_id)).toEqual([photos[2], photos[1]]);
    const third = await activity(member, `?limit=2&cursor=${second.next ?? ''}`);
    expect(third.results.map((row) => row.resource_id)).toEqual([photos[0]]);
    expect(third.next).toBeNull();

    const all = await activity(member, '?limit=100');
    expect(all.results).toHaveLength(5);
    const otherIds = (await rowsOf(other.id)).map((row) => row.id);
    expect(all.results.map((row: ActivityEntry) => row.id)).not.toEqual(
      expect.arrayContaining([otherIds[0]]),
    );
    expect(Object.keys(all.results[0] ?? {}).sort()).toEqual(
      [
        'action',
        'actor_member',
        'actor_staff',
        'at',
        'id',
        'ip',
        'resource_date',
        'resource_id',
        'resource_type',
        'result',
        'user_agent',
      ].sort(),
    );
  });

  // 2147483648 is one past the last position the trail's integer column holds.
  it.each([
    '?limit=101',
    '?limit=0',
    '?limit=two',
    '?cursor=abc',
    '?cursor=-1',
    '?cursor=2147483648',
    '?cursor=67395210290',
  ])('answers 400 for %s', async (query) => {
    const member = await factory.loggedInMember();
    const res = await t.request('GET', `${auditPaths.activity}${query}`, {
      token: member.tokens.access,
    });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
  });

  it('answers 401 without a bearer token', async () => {
    expect((await t.request('GET', auditPaths.activity)).statusCode).toBe(401);
  });
});

describe('the trail itself', () => {
  it('holds no health content: no notes, file names or images', async () => {
    const member = await factory.loggedInMember();
    const note = `secret-note-${randomUUID()}`;
    const fileName = `secret-file-${randomUUID()}.pdf`;
    const photo = await addPhoto(member, note);
    await download(member, photo.image_link);
    const record = await addRecord(member);
    await t.request('POST', medicalRecordPaths.files(record.id), {
      ...as(member),
      body: { file_name: fileName, file_link: pdf },
    });
    const dump = JSON.stringify(await rowsOf(member.id));
    for (const content of [
      note,
      fileName,
      png.slice(30, 80),
      pdf.slice(30, 80),
      'Insurance card',
    ]) {
      expect(dump).not.toContain(content);
    }
  });

  it('refuses UPDATE, DELETE and TRUNCATE', async () => {
    const member = await factory.loggedInMember();
    await addPhoto(member);
    await expect(
      t.db.execute(sql`update audit_events set result = 'success' where member_id = ${member.id}`),
    ).rejects.toThrow();
    await expect(
      t.db.execute(sql`delete from audit_events where member_id = ${member.id}`),
    ).rejects.toThrow();
    await expect(t.db.execute(sql`truncate audit_events`)).rejects.toThrow();
    expect(await rowsOf(member.id)).toHaveLength(1);
  });

  it('keeps one unbroken chain under concurrent writers of one member', async () => {
    const member = await factory.loggedInMember();
    await Promise.all(
      Array.from({ length: 12 }, () => t.request('GET', oralPhotoPaths.list, as(member))),
    );
    const seqs = (await rowsOf(member.id)).map((row) => row.seq).sort((a, b) => a - b);
    expect(seqs).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    const out: string[] = [];
    const code = await runAuditCommand(
      t.services.audit,
      ['verify'],
      (line) => out.push(line),
      () => undefined,
    );
    expect(code).toBe(0);
    expect(out).toEqual([
      expect.stringMatching(/^Checked \d+ rows in \d+ chains: every chain is intact\.$/),
    ]);
  });

  it('commits appends that arrive while their chain is being written together, each answered with its own row', async () => {
    const member = await factory.loggedInMember();
    const repository = new AuditRepository(t.db);
    const event = (requestId: string) => ({
      id: randomUUID(),
      memberId: member.id,
      at: t.clock.now(),
      actor: member.id,
      action: 'view',
      resourceType: 'oral_photo',
      resourceId: null,
      result: 'success',
      ip: null,
      userAgent: null,
      requestId,
    });
    const events = ['r1', 'r2', 'r3', 'r4', 'r5'].map(event);
    const rows = await Promise.all(events.map((each) => repository.append(each)));
    // The first is written at once; the four that arrive meanwhile share the next transaction
    // (rows written by one transaction carry its id in xmin).
    const transactions = await t.db.execute(
      sql`select request_id, xmin::text as transaction from audit_events where request_id in ('r1', 'r2', 'r3', 'r4', 'r5') and member_id = ${member.id} order by seq`,
    );
    const transactionOf = resultRows<{ transaction: string }>(transactions).map(
      (row) => row.transaction,
    );
    expect(new Set(transactionOf.slice(1)).size).toBe(1);
    expect(transactionOf[0]).not.toBe(transactionOf[1]);
    expect(rows.map((row) => row.requestId)).toEqual(['r1', 'r2', 'r3', 'r4', 'r5']);
    const first = rows[0]?.seq ?? 0;
    expect(rows.map((row) => row.seq)).toEqual([0, 1, 2, 3, 4].map((step) => first + step));

    // A batch that fails is tried again one event at a time: only the bad event is refused.
    const [good, bad, alsoGood] = [event('g1'), { ...event('bad'), id: 'not-a-uuid' }, event('g2')];
    const outcomes = await Promise.allSettled(
      [good, bad, alsoGood].map((each) => repository.append(each)),
    );
    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      'fulfilled',
      'rejected',
      'fulfilled',
    ]);
    expect((await t.services.audit.verify()).broken).toEqual([]);
  });

  it('reads every chain whole and in order a few rows at a time, the chain of no member too', async () => {
    const member = await factory.loggedInMember();
    for (let i = 0; i < 3; i++) await t.request('GET', oralPhotoPaths.list, as(member));
    const unknown = await t.request('POST', accountPaths.login, {
      body: {
        login_type: 'native',
        email: `nobody-${randomUUID()}@example.com`,
        password: 'Whatever-123',
      },
    });
    expect(unknown.statusCode).toBe(401);

    const read: (typeof auditEvents.$inferSelect)[] = [];
    for await (const row of new AuditRepository(t.db).allInChainOrder(2)) read.push(row);
    const [{ n } = { n: 0 }] = await t.db
      .select({ n: sql<number>`count(*)::int` })
      .from(auditEvents);
    expect(read).toHaveLength(n);
    expect(new Set(read.map((row) => row.id)).size).toBe(n);
    // Each chain is one run of rows, its positions rising.
    const seen = new Set<string | null>();
    read.forEach((row, index) => {
      const previous = read[index - 1];
      if (previous?.memberId === row.memberId) {
        expect(row.seq).toBeGreaterThan(previous.seq);
      } else {
        expect(seen.has(row.memberId)).toBe(false);
        seen.add(row.memberId);
      }
    });
    expect(seen.has(null)).toBe(true);
    expect(seen.has(member.id)).toBe(true);
  });

  it('verify names the first broken row of a chain with a changed or a removed row', async () => {
    const tampered = await factory.loggedInMember();
    const trimmed = await factory.loggedInMember();
    for (const member of [tampered, trimmed]) {
      for (let i = 0; i < 3; i++) await t.request('GET', oralPhotoPaths.list, as(member));
    }
    const rows = async (member: Member) => (await rowsOf(member.id)).sort((a, b) => a.seq - b.seq);
    const [, changed] = await rows(tampered);
    const [, removed, after] = await rows(trimmed);
    expect((await t.services.audit.verify()).broken).toEqual([]);

    // What someone with write access to the database could do, past the trigger.
    await t.db.execute(sql`alter table audit_events disable trigger audit_events_no_change`);
    try {
      await t.db.execute(
        sql`update audit_events set result = 'success', ip = '10.0.0.1' where id = ${changed?.id}`,
      );
      await t.db.execute(sql`delete from audit_events where id = ${removed?.id}`);
    } finally {
      await t.db.execute(sql`alter table audit_events enable trigger audit_events_no_change`);
    }

    const report = await new AuditService(new AuditRepository(t.db), t.clock).verify();
    expect(report.broken).toEqual(
      expect.arrayContaining([
        { memberId: tampered.id, seq: 2, id: changed?.id, reason: 'hash' },
        { memberId: trimmed.id, seq: 3, id: after?.id, reason: 'gap' },
      ]),
    );
    expect(report.broken).toHaveLength(2);

    const out: string[] = [];
    const err: string[] = [];
    const code = await runAuditCommand(
      t.services.audit,
      ['verify'],
      (line) => out.push(line),
      (line) => err.push(line),
    );
    expect(code).toBe(1);
    expect(out.join('\n')).toMatch(/^Checked \d+ rows in \d+ chains: 2 broken\.$/);
    expect(err.join('\n')).toContain(
      `Chain of ${tampered.id}: first broken row ${changed?.id ?? ''} (position 2): its fields no longer match its hash`,
    );
    expect(err.join('\n')).toContain(
      `Chain of ${trimmed.id}: first broken row ${after?.id ?? ''} (position 3): the rows before it are missing`,
    );
  });

  it('verify --member checks that member’s chain alone', async () => {
    const [checked, other] = [await factory.loggedInMember(), await factory.loggedInMember()];
    for (const member of [checked, other]) {
      for (let i = 0; i < 3; i++) await t.request('GET', oralPhotoPaths.list, as(member));
    }
    const [, changed] = (await rowsOf(other.id)).sort((a, b) => a.seq - b.seq);
    await t.db.execute(sql`alter table audit_events disable trigger audit_events_no_change`);
    try {
      await t.db.execute(sql`update audit_events set ip = '10.0.0.1' where id = ${changed?.id}`);
    } finally {
      await t.db.execute(sql`alter table audit_events enable trigger audit_events_no_change`);
    }
    const verify = async (argv: string[]) => {
      const out: string[] = [];
      const err: string[] = [];
      const code = await runAuditCommand(
        t.services.audit,
        argv,
        (line) => out.push(line),
        (line) => err.push(line),
      );
      return { code, out, err };
    };

    const rows = (await rowsOf(checked.id)).length;
    expect(await verify(['verify', '--member', checked.id])).toEqual({
      code: 0,
      out: [`Checked ${String(rows)} rows in 1 chains: every chain is intact.`],
      err: [],
    });
    const broken = await verify(['verify', '--member', other.id]);
    expect(broken.code).toBe(1);
    expect(broken.err).toEqual([
      expect.stringContaining(`Chain of ${other.id}: first broken row ${changed?.id ?? ''}`),
    ]);
    expect((await verify(['verify', '--member', 'someone'])).code).toBe(1);
  });
});

describe('npm run audit -- verify (the program)', () => {
  it('exits 1 naming the first broken row', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'audit-cli-'));
    const env = {
      ...process.env,
      DATA_DIR: dataDir,
      TOKEN_SECRET: randomUUID() + randomUUID(),
      LOG_LEVEL: 'silent',
    };
    const run = () =>
      execFileAsync(process.execPath, ['--import', 'tsx', 'apps/api/src/cli/audit.ts', 'verify'], {
        cwd: repoRoot,
        env,
      });
    try {
      const database = await openDatabase(databaseTarget({ databaseUrl: undefined, dataDir }));
      const audit = new AuditService(new AuditRepository(database.db), t.clock);
      const event = {
        memberId: randomUUID(),
        action: 'read',
        resourceType: 'oral_photo_list',
        resourceId: null,
        result: 'success',
      } as const;
      await audit.record({ ...event, actor: event.memberId });
      await audit.record({ ...event, actor: event.memberId });
      await database.close();

      // Tampered in a second opening, as someone with the database files could.
      const again = await openDatabase(databaseTarget({ databaseUrl: undefined, dataDir }));
      const [first] = await again.db.select().from(auditEvents).where(eq(auditEvents.seq, 1));
      await again.db.execute(sql`alter table audit_events disable trigger audit_events_no_change`);
      await again.db.execute(sql`update audit_events set action = 'delete' where seq = 1`);
      await again.close();
      const failure = await run().then(
        () => null,
        (error: unknown) => error as { code: number; stdout: string; stderr: string },
      );
      expect(failure?.code).toBe(1);
      expect(failure?.stdout).toBe('Checked 2 rows in 1 chains: 1 broken.\n');
      expect(failure?.stderr).toContain(`first broken row ${first?.id ?? ''} (position 1)`);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});

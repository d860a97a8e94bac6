import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accountPaths,
  activityPage,
  appointmentPaths,
  auditPaths,
  calendarPaths,
  consultationPaths,
  delegateList,
  delegationInvited,
  delegationPaths,
  dentalAiPaths,
  maxDelegates,
  medicalRecordPaths,
  membershipPaths,
  oralPhotoPaths,
  receiptPaths,
  receivedDelegation,
  receivedDelegationList,
  sessionPaths,
  type Appointment,
  type MedicalRecord,
  type CaptureSet,
  type OralPhoto,
  type OutsideRangeCount,
} from '@dental/contracts';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories, uniqueEmail } from '#api-test/factories';
import { writeFixtureModel } from '#api-test/fixtures/fixture-model';
import { dataUrlOf, makePdf, makePng } from '#api-test/fixtures/upload-test-files';
import { startSmtpInbox, type SmtpInbox } from '#api-test/smtp-inbox';
import { newestAuditRow } from '#api-test/support/audit-rows';
import { auditEvents } from '#api/db/schema';
import { delegableRoutes } from './delegation.plugin';

let t: TestApp;
let factory: ReturnType<typeof factories>;
let inbox: SmtpInbox;
let modelDir: string;
let png: string;
let pdf: string;

type Member = Awaited<ReturnType<typeof factory.loggedInMember>>;

/** What the owner has of each kind, so each delegable read has something to read. */
interface Seeded {
  photo: OralPhoto;
  /** A photo of a guided capture, for the set's read. */
  setPhoto: OralPhoto;
  record: MedicalRecord;
  appointment: Appointment;
  resultId: string;
}

let owner: Member;
let seeded: Seeded;

beforeAll(async () => {
  inbox = await startSmtpInbox();
  modelDir = await mkdtemp(path.join(os.tmpdir(), 'delegation-model-'));
  const model = path.join(modelDir, 'caries.onnx');
  await writeFixtureModel(model);
  t = await buildTestApp({
    env: {
      SMTP_URL: inbox.url,
      DENTAL_AI_MODEL_CARIES: model,
      DENTAL_AI_MODEL_CARIES_PHOTO: model,
      DENTAL_AI_SHIPPED_MODELS: 'off',
      // One owner invites many people here; the daily limits have their own tests
      // (invitation-limits.int.test.ts).
      INVITES_PER_MEMBER_PER_DAY: '1000',
    },
  });
  factory = factories(t);
  png = dataUrlOf(await makePng(), 'image/png');
  pdf = dataUrlOf(makePdf(), 'application/pdf');
  owner = await factory.loggedInMember({ username: 'Alex' });
  seeded = await seed(owner);
});
afterAll(async () => {
  await t.close();
  await inbox.close();
  await rm(modelDir, { recursive: true, force: true });
});

const as = (member: Member, body?: unknown) => ({
  token: member.tokens.access,
  ...(body === undefined ? {} : { body }),
});

async function seed(member: Member): Promise<Seeded> {
  const photo = await t.request(
    'POST',
    oralPhotoPaths.list,
    as(member, { shoot_date: '2026-03-01', photo_type: 'X-ray', note: 'Molar', image_link: png }),
  );
  expect(photo.statusCode, photo.body).toBe(201);
  const record = await t.request(
    'POST',
    medicalRecordPaths.list,
    as(member, {
      title: 'Insurance card',
      record_date: '2026-04-02',
      note: '',
      medical_files: [{ file_name: 'card.pdf', file_link: pdf }],
    }),
  );
  expect(record.statusCode, record.body).toBe(201);
  // Dated after the outside-range read's start, so that it counts only the X-ray.
  const setPhoto = await t.request(
    'POST',
    oralPhotoPaths.list,
    as(member, {
      shoot_date: '2026-03-05',
      photo_type: 'Photo',
      image_link: png,
      capture_set_id: randomUUID(),
      capture_view: 'front',
    }),
  );
  expect(setPhoto.statusCode, setPhoto.body).toBe(201);
  const appointment = await factory.appointment(member, {
    appointment_date: '2030-03-16T09:30:00.000Z',
    time_zone: 'UTC',
  });
  const result = await t.request('POST', dentalAiPaths.root, as(member, { image_url: png }));
  expect(result.statusCode, result.body).toBe(201);
  return {
    photo: photo.json<OralPhoto>(),
    setPhoto: setPhoto.json<OralPhoto>(),
    record: record.json<MedicalRecord>(),
    appointment,
    resultId: result.json<{ id: string }>().id,
  };
}

async function invite(from: Member, email: string): Promise<string> {
  const res = await t.request('POST', delegationPaths.delegates, as(from, { email }));
  expect(res.statusCode, res.body).toBe(201);
  return delegationInvited.parse(res.json()).id;
}

/** A member who has accepted `from`'s invitation. */
async function delegateOf(from: Member, username = 'Sam'): Promise<Member & { grant: string }> {
  const member = await factory.loggedInMember({ username });
  const grant = await invite(from, member.email);
  const res = await t.request('POST', delegationPaths.accept(grant), as(member));
  expect(res.statusCode, res.body).toBe(200);
  return { ...member, grant };
}

const forMember = (url: string, memberId: string) =>
  `${url}${url.includes('?') ? '&' : '?'}member=${memberId}`;

const newestRowOf = (memberId: string) => newestAuditRow(t, memberId);

async function rowCount(memberId: string) {
  return (await t.db.select().from(auditEvents).where(eq(auditEvents.memberId, memberId))).length;
}

/** Every delegable read: its URL for the seeded owner, the audit row it writes, and how to tell
 *  that the answer is the owner's. */
const reads: {
  route: string;
  url: () => string;
  resourceType: string;
  resourceId: () => string | null;
  isOwners: (body: unknown) => boolean;
}[] = [
  {
    route: `GET ${oralPhotoPaths.list}`,
    url: () => oralPhotoPaths.list,
    resourceType: 'oral_photo_list',
    resourceId: () => null,
    isOwners: (body) => (body as OralPhoto[]).some((photo) => photo.id === seeded.photo.id),
  },
  {
    // Counts are health data too: how many photos the owner keeps outside the dates.
    route: `GET ${oralPhotoPaths.outsideRange}`,
    url: () => `${oralPhotoPaths.outsideRange}?startDate=2026-03-02`,
    resourceType: 'oral_photo_list',
    resourceId: () => null,
    isOwners: (body) => (body as OutsideRangeCount).before === 1,
  },
  {
    route: `GET ${oralPhotoPaths.list}:id/`,
    url: () => oralPhotoPaths.one(seeded.photo.id),
    resourceType: 'x_ray',
    resourceId: () => seeded.photo.id,
    isOwners: (body) => (body as OralPhoto).id === seeded.photo.id,
  },
  {
    route: `GET ${oralPhotoPaths.captureSet(':setId')}`,
    url: () => oralPhotoPaths.captureSet(seeded.setPhoto.capture_set_id ?? ''),
    resourceType: 'oral_photo_set',
    resourceId: () => seeded.setPhoto.capture_set_id,
    isOwners: (body) => (body as CaptureSet).photos[0]?.id === seeded.setPhoto.id,
  },
  {
    route: `GET ${medicalRecordPaths.list}`,
    url: () => medicalRecordPaths.list,
    resourceType: 'medical_record_list',
    resourceId: () => null,
    isOwners: (body) => (body as MedicalRecord[]).some((r) => r.id === seeded.record.id),
  },
  {
    route: `GET ${medicalRecordPaths.outsideRange}`,
    url: () => `${medicalRecordPaths.outsideRange}?endDate=2026-04-01`,
    resourceType: 'medical_record_list',
    resourceId: () => null,
    isOwners: (body) => (body as OutsideRangeCount).after === 1,
  },
  {
    route: `GET ${medicalRecordPaths.list}:id/`,
    url: () => medicalRecordPaths.one(seeded.record.id),
    resourceType: 'medical_record',
    resourceId: () => seeded.record.id,
    // The record's files come with it, as signed links the delegate's browser can open.
    isOwners: (body) =>
      (body as MedicalRecord).id === seeded.record.id &&
      (body as MedicalRecord).medical_files.length === 1,
  },
  {
    route: `GET ${appointmentPaths.list}`,
    url: () => appointmentPaths.list,
    resourceType: 'appointment_list',
    resourceId: () => null,
    isOwners: (body) => (body as Appointment[]).some((a) => a.id === seeded.appointment.id),
  },
  {
    route: `GET ${appointmentPaths.outsideRange}`,
    url: () => `${appointmentPaths.outsideRange}?order=upcoming&endDate=2030-03-15`,
    resourceType: 'appointment_list',
    resourceId: () => null,
    isOwners: (body) => (body as OutsideRangeCount).after === 1,
  },
  {
    route: `GET ${appointmentPaths.list}:id/`,
    url: () => appointmentPaths.one(seeded.appointment.id),
    resourceType: 'appointment',
    resourceId: () => seeded.appointment.id,
    isOwners: (body) => (body as Appointment).id === seeded.appointment.id,
  },
  {
    route: `GET ${dentalAiPaths.results}`,
    url: () => dentalAiPaths.results,
    resourceType: 'dental_ai_result_list',
    resourceId: () => null,
    isOwners: (body) => (body as { id: string }[]).some((r) => r.id === seeded.resultId),
  },
  {
    route: `GET ${dentalAiPaths.root}:id/`,
    url: () => dentalAiPaths.result(seeded.resultId),
    resourceType: 'dental_ai_result',
    resourceId: () => seeded.resultId,
    isOwners: (body) => (body as { id: string }).id === seeded.resultId,
  },
];

/** Every write on the owner's health data, each with a valid body: only `?member=` stops it. */
const writes: {
  name: string;
  method: 'POST' | 'PUT' | 'DELETE';
  url: () => string;
  body?: () => unknown;
}[] = [
  {
    name: 'add a photo',
    method: 'POST',
    url: () => oralPhotoPaths.list,
    body: () => ({ shoot_date: '2026-03-01', photo_type: 'Photo', note: '', image_link: png }),
  },
  {
    name: 'change a photo',
    method: 'PUT',
    url: () => oralPhotoPaths.one(seeded.photo.id),
    body: () => ({ shoot_date: '2026-03-02', photo_type: 'Photo', note: 'changed' }),
  },
  { name: 'delete a photo', method: 'DELETE', url: () => oralPhotoPaths.one(seeded.photo.id) },
  {
    name: 'add a record',
    method: 'POST',
    url: () => medicalRecordPaths.list,
    body: () => ({ title: 'New', record_date: '2026-04-03', note: '', medical_files: [] }),
  },
  {
    name: 'change a record',
    method: 'PUT',
    url: () => medicalRecordPaths.one(seeded.record.id),
    body: () => ({ title: 'Changed', record_date: '2026-04-03', note: '' }),
  },
  {
    name: 'delete a record',
    method: 'DELETE',
    url: () => medicalRecordPaths.one(seeded.record.id),
  },
  {
    name: 'attach a file to a record',
    method: 'POST',
    url: () => medicalRecordPaths.files(seeded.record.id),
    body: () => ({ file_name: 'more.pdf', file_link: pdf }),
  },
  {
    name: 'remove a file of a record',
    method: 'DELETE',
    url: () => medicalRecordPaths.file(seeded.record.id, seeded.record.medical_files[0]?.id ?? ''),
  },
  {
    name: 'add an appointment',
    method: 'POST',
    url: () => appointmentPaths.list,
    body: () => ({ appointment_date: '2030-04-01T09:00:00.000Z' }),
  },
  {
    name: 'change an appointment',
    method: 'PUT',
    url: () => appointmentPaths.one(seeded.appointment.id),
    body: () => ({ appointment_date: '2030-04-02T09:00:00.000Z', note: 'changed' }),
  },
  {
    name: 'delete an appointment',
    method: 'DELETE',
    url: () => appointmentPaths.one(seeded.appointment.id),
  },
  {
    name: 'run a Dental AI detection',
    method: 'POST',
    url: () => dentalAiPaths.root,
    body: () => ({ image_url: png }),
  },
  {
    name: 'delete a Dental AI result',
    method: 'DELETE',
    url: () => dentalAiPaths.result(seeded.resultId),
  },
];

/** Reads that are the owner's alone: account, membership, receipts, devices, activity,
 *  delegates. */
const ownerOnlyReads = (): string[] => [
  accountPaths.account,
  membershipPaths.current,
  receiptPaths.list,
  sessionPaths.sessions,
  auditPaths.activity,
  delegationPaths.delegates,
  delegationPaths.received,
  dentalAiPaths.root,
  `${consultationPaths.reservations}?period=future`,
  calendarPaths.feed,
  calendarPaths.appointment(seeded.appointment.id),
];

describe('the delegable routes', () => {
  it('are exactly the read list of the issue', () => {
    expect(new Set(delegableRoutes)).toEqual(new Set(reads.map((read) => read.route)));
  });
});

describe('invitations', () => {
  it('answers the same for an address with or without an account and e-mails the invitee', async () => {
    const member = await factory.member();
    const nobody = uniqueEmail('nobody');
    const known = await t.request(
      'POST',
      delegationPaths.delegates,
      as(owner, { email: member.email }),
    );
    const unknown = await t.request(
      'POST',
      delegationPaths.delegates,
      as(owner, { email: nobody }),
    );
    expect(known.statusCode).toBe(201);
    expect(unknown.statusCode).toBe(201);
    expect(known.json()).toMatchObject({ email: member.email, status: 'invited' });
    expect(Object.keys(unknown.json<object>()).sort()).toEqual(
      Object.keys(known.json<object>()).sort(),
    );

    const mail = await inbox.waitForMessageTo(nobody);
    expect(mail.subject).toBe(`Invitation to view a dental record in ${t.config.companyName}`);
    expect(mail.text).toContain('Alex has invited you to view their dental record');
    expect(mail.text).toContain('http://app.test/account');
    expect(await newestRowOf(owner.id)).toMatchObject({
      actor: owner.id,
      action: 'delegate_invite',
      resourceType: 'delegation',
      resourceId: unknown.json<{ id: string }>().id,
      result: 'success',
    });
    for (const id of [known, unknown].map((res) => res.json<{ id: string }>().id)) {
      expect((await t.request('DELETE', delegationPaths.one(id), as(owner))).statusCode).toBe(204);
    }
  });

  it.each([
    ['no e-mail', {}, 400],
    ['not an e-mail', { email: 'alex' }, 400],
    ['a NUL', { email: 'a\u0000@example.com' }, 400],
  ])('refuses %s with a problem and invites no one', async (_name, body, status) => {
    const member = await factory.loggedInMember();
    const res = await t.request('POST', delegationPaths.delegates, as(member, body));
    expect(res.statusCode).toBe(status);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect((await t.request('GET', delegationPaths.delegates, as(member))).json()).toEqual([]);
  });

  it('refuses inviting oneself, the same address twice (any case), and more than the limit', async () => {
    const member = await factory.loggedInMember();
    const self = await t.request(
      'POST',
      delegationPaths.delegates,
      as(member, { email: member.email.toUpperCase() }),
    );
    expect(self.statusCode).toBe(422);
    const email = uniqueEmail('twice');
    await invite(member, email);
    const again = await t.request(
      'POST',
      delegationPaths.delegates,
      as(member, { email: email.toUpperCase() }),
    );
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ errors: { email: [expect.any(String)] } });
    for (let n = 1; n < maxDelegates; n += 1) await invite(member, uniqueEmail('many'));
    const tooMany = await t.request(
      'POST',
      delegationPaths.delegates,
      as(member, { email: uniqueEmail('one-more') }),
    );
    expect(tooMany.statusCode).toBe(422);
    expect(
      delegateList.parse((await t.request('GET', delegationPaths.delegates, as(member))).json()),
    ).toHaveLength(maxDelegates);
  });

  it('is accepted only by the member whose account e-mail it names, ignoring case', async () => {
    const invitee = await factory.loggedInMember({ username: 'Sam' });
    const stranger = await factory.loggedInMember();
    const id = await invite(owner, invitee.email.toUpperCase());

    // The invitee sees it before accepting; nobody else does, and nobody else may accept it.
    const before = receivedDelegationList.parse(
      (await t.request('GET', delegationPaths.received, as(invitee))).json(),
    );
    expect(before).toContainEqual({
      id,
      owner: { id: owner.id, username: 'Alex' },
      status: 'invited',
    });
    expect((await t.request('GET', delegationPaths.received, as(stranger))).json()).toEqual([]);
    expect((await t.request('POST', delegationPaths.accept(id), as(stranger))).statusCode).toBe(
      404,
    );
    expect((await t.request('POST', delegationPaths.accept(id), as(owner))).statusCode).toBe(404);
    expect(
      (await t.request('POST', delegationPaths.accept(randomUUID()), as(invitee))).statusCode,
    ).toBe(404);
    expect((await t.request('DELETE', delegationPaths.one(id), as(stranger))).statusCode).toBe(404);

    const accepted = await t.request('POST', delegationPaths.accept(id), as(invitee));
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(receivedDelegation.parse(accepted.json())).toEqual({
      id,
      owner: { id: owner.id, username: 'Alex' },
      status: 'active',
    });
    expect(await newestRowOf(owner.id)).toMatchObject({
      actor: invitee.id,
      action: 'delegate_accept',
      resourceId: id,
    });
    // Accepting again changes nothing.
    expect((await t.request('POST', delegationPaths.accept(id), as(invitee))).statusCode).toBe(200);

    const listed = delegateList
      .parse((await t.request('GET', delegationPaths.delegates, as(owner))).json())
      .find((row) => row.id === id);
    expect(listed).toMatchObject({
      status: 'active',
      username: 'Sam',
      accepted_at: expect.stringMatching(/^\d{4}-/) as unknown,
    });
    // The invitee's own delegates are not the owner's.
    expect((await t.request('GET', delegationPaths.delegates, as(invitee))).json()).toEqual([]);
    expect((await t.request('DELETE', delegationPaths.one(id), as(owner))).statusCode).toBe(204);
  });
});

describe('a delegate', () => {
  let sam: Awaited<ReturnType<typeof delegateOf>>;
  beforeAll(async () => {
    sam = await delegateOf(owner);
  });

  it.each(reads)('reads $route with ?member=, audited in the owner’s chain', async (read) => {
    const samRows = await rowCount(sam.id);
    const res = await t.request('GET', forMember(read.url(), owner.id), as(sam));
    expect(res.statusCode, res.body).toBe(200);
    expect(read.isOwners(res.json())).toBe(true);
    expect(await newestRowOf(owner.id)).toMatchObject({
      actor: sam.id,
      action: 'read',
      resourceType: read.resourceType,
      resourceId: read.resourceId(),
      result: 'success',
    });
    expect(await rowCount(sam.id)).toBe(samRows);
    // Without ?member= the same route is still the delegate's own record.
    const own = await t.request('GET', read.url(), as(sam));
    expect(own.statusCode === 404 || !read.isOwners(own.json())).toBe(true);
  });

  it('sees the owner’s name in the owner’s activity for each read', async () => {
    await t.request('GET', forMember(oralPhotoPaths.list, owner.id), as(sam));
    const page = activityPage.parse(
      (await t.request('GET', `${auditPaths.activity}?limit=1`, as(owner))).json(),
    );
    expect(page.results[0]).toMatchObject({
      action: 'read',
      resource_type: 'oral_photo_list',
      actor_member: { id: sam.id, username: 'Sam' },
    });
    await t.request('GET', oralPhotoPaths.list, as(owner));
    const self = activityPage.parse(
      (await t.request('GET', `${auditPaths.activity}?limit=1`, as(owner))).json(),
    );
    expect(self.results[0]).toMatchObject({ resource_type: 'oral_photo_list', actor_member: null });
  });

  it('keeps ?member= in the next-page link', async () => {
    const res = await t.request(
      'GET',
      forMember(`${oralPhotoPaths.list}?limit=1`, owner.id),
      as(sam),
    );
    expect(res.statusCode).toBe(200);
    await t.request(
      'POST',
      oralPhotoPaths.list,
      as(owner, { shoot_date: '2026-02-01', photo_type: 'Photo', note: '', image_link: png }),
    );
    const paged = await t.request(
      'GET',
      forMember(`${oralPhotoPaths.list}?limit=1`, owner.id),
      as(sam),
    );
    expect(paged.headers.link).toContain(`member=${owner.id}`);
  });

  it.each(writes)('cannot $name with ?member= (404, nothing changes)', async (write) => {
    const before = await snapshot();
    const res = await t.request(write.method, forMember(write.url(), owner.id), {
      ...as(sam),
      ...(write.body === undefined ? {} : { body: write.body() }),
    });
    expect(res.statusCode, res.body).toBe(404);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(await snapshot()).toEqual(before);
    // Refused in the delegate's own chain; the owner's chain is not touched.
    expect(await newestRowOf(sam.id)).toMatchObject({ actor: sam.id, result: 'failure' });
  });

  it('cannot read the owner’s account, membership, devices, activity or delegates (404)', async () => {
    for (const url of ownerOnlyReads()) {
      expect((await t.request('GET', url, as(owner))).statusCode, url).toBe(200);
      const res = await t.request('GET', forMember(url, owner.id), as(sam));
      expect(res.statusCode, url).toBe(404);
      // Not even the owner may name a member on these routes.
      expect((await t.request('GET', forMember(url, owner.id), as(owner))).statusCode, url).toBe(
        404,
      );
    }
  });

  it('reads only with an id: a malformed or repeated member is 404', async () => {
    for (const query of ['member=alex', 'member=', `member=${owner.id}&member=${owner.id}`]) {
      const res = await t.request('GET', `${oralPhotoPaths.list}?${query}`, as(sam));
      expect(res.statusCode, query).toBe(404);
    }
  });

  it('may name themself: that is their own record', async () => {
    const res = await t.request('GET', forMember(oralPhotoPaths.list, sam.id), as(sam));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
  });

  it('must be signed in (401 before anything else)', async () => {
    expect((await t.request('GET', forMember(oralPhotoPaths.list, owner.id))).statusCode).toBe(401);
  });
});

describe('without an active grant', () => {
  it.each(reads)(
    'a stranger, an invitee who has not accepted and the owner’s other delegate’s owner get 404 for $route',
    async (read) => {
      const stranger = await factory.loggedInMember();
      const invitee = await factory.loggedInMember();
      const invitation = await invite(owner, invitee.email);
      // A grant the other way round gives the owner nothing of the delegate's.
      const other = await factory.loggedInMember();
      await delegateOf(other);
      const ownerRows = await rowCount(owner.id);
      for (const member of [stranger, invitee]) {
        const res = await t.request('GET', forMember(read.url(), owner.id), as(member));
        expect(res.statusCode, res.body).toBe(404);
        expect(await newestRowOf(member.id)).toMatchObject({ actor: member.id, result: 'failure' });
      }
      expect(await rowCount(owner.id)).toBe(ownerRows);
      const res = await t.request('GET', forMember(read.url(), other.id), as(owner));
      expect(res.statusCode).toBe(404);
      // The owner may invite only so many people.
      await t.request('DELETE', delegationPaths.one(invitation), as(owner));
    },
  );

  it.each(reads)('a revoked delegate and one who left get 404 for $route', async (read) => {
    const revoked = await delegateOf(owner);
    const left = await delegateOf(owner);
    for (const member of [revoked, left]) {
      expect((await t.request('GET', forMember(read.url(), owner.id), as(member))).statusCode).toBe(
        200,
      );
    }
    expect(
      (await t.request('DELETE', delegationPaths.one(revoked.grant), as(owner))).statusCode,
    ).toBe(204);
    expect(await newestRowOf(owner.id)).toMatchObject({
      actor: owner.id,
      action: 'delegate_revoke',
      resourceId: revoked.grant,
    });
    expect((await t.request('DELETE', delegationPaths.one(left.grant), as(left))).statusCode).toBe(
      204,
    );
    expect(await newestRowOf(owner.id)).toMatchObject({
      actor: left.id,
      action: 'delegate_leave',
      resourceId: left.grant,
    });
    for (const member of [revoked, left]) {
      expect((await t.request('GET', forMember(read.url(), owner.id), as(member))).statusCode).toBe(
        404,
      );
      expect((await t.request('GET', delegationPaths.received, as(member))).json()).toEqual([]);
    }
  });

  it('a delegate of an owner who deactivated gets 404', async () => {
    const leaving = await factory.loggedInMember({ username: 'Kim' });
    const sam = await delegateOf(leaving);
    expect(
      (await t.request('GET', forMember(oralPhotoPaths.list, leaving.id), as(sam))).statusCode,
    ).toBe(200);
    await t.services.accounts.deactivate(leaving.id);
    expect(
      (await t.request('GET', forMember(oralPhotoPaths.list, leaving.id), as(sam))).statusCode,
    ).toBe(404);
    expect((await t.request('GET', delegationPaths.received, as(sam))).json()).toEqual([]);
  });
});

/** The owner's health data as the owner reads it, to show that a refused write changed nothing. */
async function snapshot() {
  const bodies = [];
  for (const url of [
    oralPhotoPaths.list,
    medicalRecordPaths.one(seeded.record.id),
    appointmentPaths.list,
    dentalAiPaths.results,
  ]) {
    const res = await t.request('GET', url, as(owner));
    expect(res.statusCode).toBe(200);
    bodies.push(stripLinks(res.json()));
  }
  return bodies;
}

/** Signed links carry their signing time; the rest of the answer is compared. */
function stripLinks(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripLinks);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      key,
      typeof inner === 'string' && inner.startsWith('/api/files/') ? 'link' : stripLinks(inner),
    ]),
  );
}

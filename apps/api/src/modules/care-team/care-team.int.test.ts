import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  activityPage,
  auditPaths,
  careTeamAccess,
  careTeamItemNotFoundMessage,
  careTeamPaths,
  clinicPatientList,
  clinicPatientNotFoundMessage,
  clinicPatientPaths,
  medicalRecordList,
  medicalRecordPaths,
  oralPhotoList,
  oralPhotoPaths,
  type CareTeamAccess,
  type MedicalRecord,
  type OralPhoto,
} from '@dental/contracts';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories } from '#api-test/factories';
import { fetchLink } from '#api-test/support/files';
import { dataUrlOf, makePdf, makePng } from '#api-test/fixtures/upload-test-files';
import {
  auditEvents,
  careTeamAccess as careTeamAccessTable,
  delegations,
  doctors,
  reservations,
  totpCredentials,
  users,
} from '#api/db/schema';

let t: TestApp;
let factory: ReturnType<typeof factories>;
let png: string;
let pdf: string;

beforeAll(async () => {
  t = await buildTestApp();
  factory = factories(t);
  png = dataUrlOf(await makePng(), 'image/png');
  pdf = dataUrlOf(makePdf(), 'application/pdf');
});
afterAll(() => t.close());

type Member = Awaited<ReturnType<typeof factory.loggedInMember>>;
interface Staff extends Member {
  doctorId: string | null;
}

const as = (member: Member, body?: unknown) => ({ token: member.tokens.access, body });

async function addPhoto(member: Member, shootDate: string, type = 'X-ray'): Promise<OralPhoto> {
  const res = await t.request('POST', oralPhotoPaths.list, {
    ...as(member),
    body: { shoot_date: shootDate, photo_type: type, image_link: png },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<OralPhoto>();
}

async function addRecord(member: Member, recordDate: string): Promise<MedicalRecord> {
  const res = await t.request('POST', medicalRecordPaths.list, {
    ...as(member),
    body: {
      title: 'Referral letter',
      record_date: recordDate,
      medical_files: [{ file_name: 'letter.pdf', file_link: pdf }],
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<MedicalRecord>();
}

/** A staff account with a confirmed authenticator; a practitioner has their doctors row. */
async function staff(name: string, role: 'practitioner' | 'clinic_admin'): Promise<Staff> {
  const member = await factory.loggedInMember({ username: name });
  await t.db.update(users).set({ role }).where(eq(users.id, member.id));
  const now = new Date();
  await t.db
    .insert(totpCredentials)
    .values({ userId: member.id, secretCiphertext: 'x.y.z', createdAt: now, confirmedAt: now });
  if (role === 'clinic_admin') return { ...member, doctorId: null };
  const [doctor] = await t.db
    .insert(doctors)
    .values({ name: `${name} ${randomUUID()}`, timeZone: 'UTC', userId: member.id })
    .returning({ id: doctors.id });
  return { ...member, doctorId: doctor?.id ?? null };
}

async function book(patient: Member, practitioner: Staff): Promise<void> {
  if (practitioner.doctorId === null) throw new Error('not a practitioner');
  await t.db.insert(reservations).values({
    userId: patient.id,
    doctorId: practitioner.doctorId,
    timeZone: 'UTC',
    reservationTime: new Date(Date.UTC(2026, 10, 20, 9, Math.floor(Math.random() * 60))),
  });
}

async function grant(member: Member, body: unknown, status = 200) {
  const res = await t.request('POST', careTeamPaths.access, as(member, body));
  expect(res.statusCode, res.body).toBe(status);
  return res;
}

async function accessOf(member: Member): Promise<CareTeamAccess> {
  const res = await t.request('GET', careTeamPaths.access, as(member));
  expect(res.statusCode, res.body).toBe(200);
  return careTeamAccess.parse(res.json());
}

async function staffPhotos(reader: Staff, patient: Member) {
  return t.request('GET', clinicPatientPaths.oralPhotos(patient.id), as(reader));
}
async function staffRecords(reader: Staff, patient: Member) {
  return t.request('GET', clinicPatientPaths.medicalRecords(patient.id), as(reader));
}

async function photosSeen(reader: Staff, patient: Member): Promise<OralPhoto[]> {
  const res = await staffPhotos(reader, patient);
  expect(res.statusCode, res.body).toBe(200);
  return oralPhotoList.parse(res.json());
}
async function recordsSeen(reader: Staff, patient: Member): Promise<MedicalRecord[]> {
  const res = await staffRecords(reader, patient);
  expect(res.statusCode, res.body).toBe(200);
  return medicalRecordList.parse(res.json());
}

async function patientsOf(reader: Staff) {
  const res = await t.request('GET', clinicPatientPaths.list, as(reader));
  expect(res.statusCode, res.body).toBe(200);
  return clinicPatientList.parse(res.json()).results;
}

const ids = (items: { id: string }[]) => items.map((item) => item.id).sort();

describe('the member’s grant', () => {
  it('shares chosen items, replaces them with all, and revokes', async () => {
    const member = await factory.loggedInMember();
    const [a, b] = [await addPhoto(member, '2026-01-01'), await addPhoto(member, '2026-01-02')];
    const record = await addRecord(member, '2026-02-01');
    expect(await accessOf(member)).toEqual({
      scope: null,
      photos: [],
      records: [],
      granted_at: null,
    });

    const chosen = careTeamAccess.parse(
      (await grant(member, { photos: [a.id, b.id, a.id], records: [record.id] })).json(),
    );
    expect(chosen).toMatchObject({ scope: 'chosen', records: [record.id] });
    expect(chosen.photos.sort()).toEqual([a.id, b.id].sort());
    expect(await accessOf(member)).toEqual(chosen);

    await grant(member, { scope: 'all' });
    expect(await accessOf(member)).toMatchObject({ scope: 'all', photos: [], records: [] });

    await grant(member, { photos: [b.id] });
    expect(await accessOf(member)).toMatchObject({ scope: 'chosen', photos: [b.id], records: [] });

    const revoked = await t.request('DELETE', careTeamPaths.access, as(member));
    expect(revoked.statusCode).toBe(204);
    expect((await accessOf(member)).scope).toBeNull();
    // Nothing to revoke is no error.
    expect((await t.request('DELETE', careTeamPaths.access, as(member))).statusCode).toBe(204);
  });

  it('refuses another member’s photo or record and changes nothing', async () => {
    const member = await factory.loggedInMember();
    const other = await factory.loggedInMember();
    const mine = await addPhoto(member, '2026-01-01');
    const theirs = await addPhoto(other, '2026-01-01');
    const theirRecord = await addRecord(other, '2026-01-01');
    await grant(member, { photos: [mine.id] });
    const before = await accessOf(member);

    for (const body of [
      { photos: [mine.id, theirs.id] },
      { records: [theirRecord.id] },
      { photos: [randomUUID()] },
      // A photo's id is not a record's.
      { records: [mine.id] },
    ]) {
      const res = await grant(member, body, 404);
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(res.json()).toMatchObject({ detail: careTeamItemNotFoundMessage });
      expect(await accessOf(member)).toEqual(before);
    }
    for (const body of [
      {},
      { photos: [] },
      { scope: 'all', photos: [mine.id] },
      { photos: ['x'] },
    ]) {
      expect((await grant(member, body, 400)).json()).toMatchObject({ status: 400 });
      expect(await accessOf(member)).toEqual(before);
    }
  });

  it('is the signed-in member’s own: another member and a delegate neither read nor change it', async () => {
    const owner = await factory.loggedInMember();
    const photo = await addPhoto(owner, '2026-01-01');
    await grant(owner, { photos: [photo.id] });
    const before = await accessOf(owner);

    const other = await factory.loggedInMember();
    expect((await accessOf(other)).scope).toBeNull();
    // The owner's photo is not the other member's to share.
    await grant(other, { photos: [photo.id] }, 404);

    // A person who may view the owner's record acts only for themself here.
    const delegate = await factory.loggedInMember();
    await t.db.insert(delegations).values({
      ownerId: owner.id,
      email: delegate.email,
      delegateId: delegate.id,
      invitedAt: new Date(),
      acceptedAt: new Date(),
    });
    const proxied = `${careTeamPaths.access}?member=${owner.id}`;
    expect((await t.request('GET', proxied, as(delegate))).statusCode).toBe(404);
    expect((await t.request('POST', proxied, as(delegate, { scope: 'all' }))).statusCode).toBe(404);
    expect((await t.request('DELETE', proxied, as(delegate))).statusCode).toBe(404);
    expect(await accessOf(owner)).toEqual(before);
  });

  it('is recorded in the member’s chain', async () => {
    const member = await factory.loggedInMember();
    await grant(member, { scope: 'all' });
    await t.request('DELETE', careTeamPaths.access, as(member));
    const rows = await t.db
      .select()
      .from(auditEvents)
      .where(
        and(eq(auditEvents.memberId, member.id), eq(auditEvents.resourceType, 'care_team_access')),
      );
    expect(rows.map((row) => [row.action, row.actor, row.result])).toEqual([
      ['create', member.id, 'success'],
      ['delete', member.id, 'success'],
    ]);
  });

  it('is refused to a staff account (403): staff hold no patient record', async () => {
    const ada = await staff('Ada Lovelace', 'practitioner');
    expect((await t.request('GET', careTeamPaths.access, as(ada))).statusCode).toBe(403);
    expect(
      (await t.request('POST', careTeamPaths.access, as(ada, { scope: 'all' }))).statusCode,
    ).toBe(403);
  });
});

describe('what the practice’s staff read', () => {
  it('a practitioner sees exactly the chosen items, and their files, and nothing else', async () => {
    const ada = await staff('Ada Lovelace', 'practitioner');
    const patient = await factory.loggedInMember({ username: 'Pat' });
    const [x1, x2, x3] = [
      await addPhoto(patient, '2026-11-25'),
      await addPhoto(patient, '2026-11-20'),
      await addPhoto(patient, '2026-11-10', 'Photo'),
    ];
    const [r1, r2] = [
      await addRecord(patient, '2026-04-02'),
      await addRecord(patient, '2026-05-02'),
    ];
    await grant(patient, { photos: [x1.id, x2.id], records: [r2.id] });

    const photos = await photosSeen(ada, patient);
    expect(ids(photos)).toEqual(ids([x1, x2]));
    // The same item shapes as the member's own answers, only the links differ.
    const strip = (photo: OralPhoto) => ({
      ...photo,
      image_link: '',
      thumbnail_link: '',
      original_link: null,
    });
    expect(photos.map(strip)).toEqual([x1, x2].map(strip));
    const records = await recordsSeen(ada, patient);
    expect(ids(records)).toEqual([r2.id]);
    expect(records[0]?.medical_files).toHaveLength(1);

    // The links open for the staff member, name no member id, and nothing else opens.
    for (const link of [
      photos[0]?.image_link,
      photos[0]?.thumbnail_link,
      records[0]?.medical_files[0]?.file_link,
    ]) {
      expect(link).toMatch(/^\/api\/care-team-files\//);
      expect(link).not.toContain(patient.id);
      expect((await fetchLink(t, link ?? '')).statusCode).toBe(200);
    }
    // A link to the patient's unshared X-ray cannot be made from a shared one.
    const shared = photos[0]?.image_link ?? '';
    const forged = shared.replace(/care-team-files\/[^/]+\//, `care-team-files/${ada.id}/x/`);
    expect((await fetchLink(t, forged)).statusCode).toBe(403);
    expect(JSON.stringify([photos, records])).not.toContain(x3.id);
    expect(JSON.stringify(records)).not.toContain(r1.id);

    // A narrower grant stops the links of what left it at once.
    await grant(patient, { photos: [x2.id] });
    expect(
      (await fetchLink(t, photos.find((p) => p.id === x1.id)?.image_link ?? '')).statusCode,
    ).toBe(404);
    expect((await fetchLink(t, records[0]?.medical_files[0]?.file_link ?? '')).statusCode).toBe(
      404,
    );
    expect(ids(await photosSeen(ada, patient))).toEqual([x2.id]);
    expect(await recordsSeen(ada, patient)).toEqual([]);

    // 'all' is every item, later ones too.
    await grant(patient, { scope: 'all' });
    const x4 = await addPhoto(patient, '2026-11-26');
    expect(ids(await photosSeen(ada, patient))).toEqual(ids([x1, x2, x3, x4]));
    expect(ids(await recordsSeen(ada, patient))).toEqual(ids([r1, r2]));
  });

  it('shows nothing after the patient revokes: lists 404 and file links stop', async () => {
    const ada = await staff('Ada Lovelace', 'practitioner');
    const patient = await factory.loggedInMember();
    await addPhoto(patient, '2026-11-25');
    await grant(patient, { scope: 'all' });
    const [photo] = await photosSeen(ada, patient);
    expect((await patientsOf(ada)).map((p) => p.id)).toContain(patient.id);

    await t.request('DELETE', careTeamPaths.access, as(patient));
    expect((await staffPhotos(ada, patient)).statusCode).toBe(404);
    expect((await staffRecords(ada, patient)).statusCode).toBe(404);
    expect((await fetchLink(t, photo?.image_link ?? '')).statusCode).toBe(404);
    expect((await patientsOf(ada)).map((p) => p.id)).not.toContain(patient.id);
  });

  it('answers 404 for a patient neither booked with them nor sharing, and any staff member of the practice sees what is shared', async () => {
    const ada = await staff('Ada Lovelace', 'practitioner');
    const grace = await staff('Grace Hopper', 'practitioner');
    const admin = await staff('Alan Admin', 'clinic_admin');
    const stranger = await factory.loggedInMember();
    await addPhoto(stranger, '2026-11-25');
    for (const reader of [ada, admin]) {
      const res = await staffPhotos(reader, stranger);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ detail: clinicPatientNotFoundMessage });
      expect((await staffRecords(reader, stranger)).statusCode).toBe(404);
    }
    expect((await staffPhotos(ada, { ...stranger, id: randomUUID() })).statusCode).toBe(404);
    // A staff account is no patient.
    expect((await staffPhotos(ada, grace)).statusCode).toBe(404);

    // Booked with Grace: still nothing for Ada.
    await book(stranger, grace);
    expect((await staffPhotos(ada, stranger)).statusCode).toBe(404);

    // Shared with the practice: every staff member reads it.
    await grant(stranger, { scope: 'all' });
    for (const reader of [ada, grace, admin]) {
      expect(await photosSeen(reader, stranger)).toHaveLength(1);
    }
    const listed = (await patientsOf(ada)).find((p) => p.id === stranger.id);
    expect(listed).toMatchObject({ shared: 'all', booked_with_me: false });
  });

  it('answers empty lists for a patient booked with them who shares nothing', async () => {
    const ada = await staff('Ada Lovelace', 'practitioner');
    const patient = await factory.loggedInMember({ username: 'Booked Only' });
    await addPhoto(patient, '2026-11-25');
    await addRecord(patient, '2026-11-25');
    await book(patient, ada);
    expect(await photosSeen(ada, patient)).toEqual([]);
    expect(await recordsSeen(ada, patient)).toEqual([]);
    expect((await patientsOf(ada)).find((p) => p.id === patient.id)).toEqual({
      id: patient.id,
      username: 'Booked Only',
      shared: null,
      booked_with_me: true,
    });
    // A cancelled booking is no booking.
    await t.db
      .update(reservations)
      .set({ status: 'cancelled', cancelledAt: new Date() })
      .where(eq(reservations.userId, patient.id));
    expect((await staffPhotos(ada, patient)).statusCode).toBe(404);
  });

  it('refuses member tokens on every clinic patient route (403) and no token (401)', async () => {
    const member = await factory.loggedInMember();
    const patient = await factory.loggedInMember();
    await grant(patient, { scope: 'all' });
    for (const url of [
      clinicPatientPaths.list,
      clinicPatientPaths.oralPhotos(patient.id),
      clinicPatientPaths.medicalRecords(patient.id),
    ]) {
      expect((await t.request('GET', url, as(member))).statusCode).toBe(403);
      expect((await t.request('GET', url)).statusCode).toBe(401);
    }
  });

  it('writes each staff read into the patient’s chain, worded in their Account activity', async () => {
    const ada = await staff('Ada Lovelace', 'practitioner');
    const patient = await factory.loggedInMember();
    const xray = await addPhoto(patient, '2026-11-25');
    const record = await addRecord(patient, '2026-04-02');
    await grant(patient, { scope: 'all' });
    const [photo] = await photosSeen(ada, patient);
    const [shared] = await recordsSeen(ada, patient);
    expect((await fetchLink(t, photo?.image_link ?? '')).statusCode).toBe(200);
    expect((await fetchLink(t, shared?.medical_files[0]?.file_link ?? '')).statusCode).toBe(200);

    const rows = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.memberId, patient.id), eq(auditEvents.actor, ada.id)));
    expect(rows.map((row) => [row.action, row.resourceType, row.resourceId])).toEqual([
      ['read', 'oral_photo_list', null],
      ['read', 'medical_record_list', null],
      ['download', 'x_ray', xray.id],
      ['download', 'medical_file', shared?.medical_files[0]?.id],
    ]);

    const activity = await t.request('GET', auditPaths.activity, as(patient));
    const entries = activityPage
      .parse(activity.json())
      .results.filter((entry) => entry.actor_staff !== null);
    expect(entries.map((entry) => [entry.action, entry.actor_staff, entry.resource_date])).toEqual([
      ['download', { id: ada.id, name: 'Ada Lovelace' }, record.record_date],
      ['download', { id: ada.id, name: 'Ada Lovelace' }, '2026-11-25'],
      ['read', { id: ada.id, name: 'Ada Lovelace' }, null],
      ['read', { id: ada.id, name: 'Ada Lovelace' }, null],
    ]);
    expect(entries.every((entry) => entry.actor_member === null)).toBe(true);

    // A refused read stays in the staff member's own chain.
    const stranger = await factory.loggedInMember();
    expect((await staffPhotos(ada, stranger)).statusCode).toBe(404);
    const strangerRows = await t.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.memberId, stranger.id));
    expect(strangerRows.filter((row) => row.actor === ada.id)).toEqual([]);
    const [refused] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.memberId, ada.id), eq(auditEvents.result, 'failure')));
    expect(refused).toMatchObject({ actor: ada.id, resourceType: 'oral_photo_list' });
  });

  it('ends a grant with the account: a deactivated patient is no longer listed', async () => {
    const ada = await staff('Ada Lovelace', 'practitioner');
    const patient = await factory.loggedInMember();
    await grant(patient, { scope: 'all' });
    await t.db.update(users).set({ deactivatedAt: new Date() }).where(eq(users.id, patient.id));
    expect((await staffPhotos(ada, patient)).statusCode).toBe(404);
    expect(
      await t.db
        .select()
        .from(careTeamAccessTable)
        .where(eq(careTeamAccessTable.memberId, patient.id)),
    ).toHaveLength(1);
  });
});

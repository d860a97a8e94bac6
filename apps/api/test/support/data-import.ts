import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Bundle } from '@medplum/fhirtypes';
import { expect } from 'vitest';
import {
  dataExport,
  dataExportBundlePath,
  dataExportPaths,
  dataExportStarted,
  dataImport,
  dataImportPaths,
  dataImportStarted,
  medicalRecordPaths,
  oralPhotoPaths,
  type DataImport,
} from '@dental/contracts';
import { dicomDataUrl, makeDicom } from '#api-test/fixtures/dicom-test-files';
import { dataUrlOf, makePdf, makePhoneJpeg, makePng } from '#api-test/fixtures/upload-test-files';
import { unzip } from './zip';
import { addDentalAiResult, fetchLink } from './files';
import type { TestApp } from '../build-test-app';

/** A member signed in, as the factories make one. */
export interface SignedIn {
  id: string;
  tokens: { access: string };
}

export const asMember = (
  app: FastifyInstance,
  member: SignedIn,
  method: 'GET' | 'POST',
  url: string,
  body?: object,
) =>
  app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${member.tokens.access}` },
    ...(body === undefined ? {} : { payload: body }),
  });

/** A multipart form with one file, as the Profile's file input sends it. */
export function importForm(
  bytes: Buffer,
  fileName: string,
  contentType = 'application/octet-stream',
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----dental${String(Date.now())}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: ${contentType}\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** Sends a file to 'Import a record' as a multipart form. */
export function sendImport(
  app: FastifyInstance,
  member: SignedIn,
  bytes: Buffer,
  fileName = 'dental-record.zip',
): Promise<LightMyRequestResponse> {
  const form = importForm(bytes, fileName);
  return app.inject({
    method: 'POST',
    url: dataImportPaths.root,
    headers: { authorization: `Bearer ${member.tokens.access}`, ...form.headers },
    payload: form.payload,
  });
}

/** Polls until the job has finished something: an export or an import. */
async function poll<T extends { status: string }>(read: () => Promise<T>, what: string) {
  for (let attempt = 0; attempt < 240; attempt++) {
    const answer = await read();
    if (answer.status === 'done' || answer.status === 'failed') return answer;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`The ${what} did not finish within 60 s`);
}

/** Imports the file and waits for the job's outcome. */
export async function importAndWait(
  app: FastifyInstance,
  member: SignedIn,
  bytes: Buffer,
  fileName?: string,
): Promise<DataImport> {
  const started = await sendImport(app, member, bytes, fileName);
  expect(started.statusCode, started.body).toBe(202);
  return finishedImport(app, member, dataImportStarted.parse(started.json()).id);
}

/** Waits for the job's outcome of an import. */
export function finishedImport(
  app: FastifyInstance,
  member: SignedIn,
  id: string,
): Promise<DataImport> {
  return poll(async () => {
    const res = await asMember(app, member, 'GET', dataImportPaths.one(id));
    expect(res.statusCode, res.body).toBe(200);
    return dataImport.parse(res.json());
  }, 'import');
}

/** 'Download my data' for the member: the zip's bytes. */
export async function exportArchive(
  t: TestApp,
  app: FastifyInstance,
  member: SignedIn,
): Promise<Buffer> {
  const started = await asMember(app, member, 'POST', dataExportPaths.root);
  expect(started.statusCode, started.body).toBe(202);
  const { id } = dataExportStarted.parse(started.json());
  const answer = await poll(async () => {
    const res = await asMember(app, member, 'GET', dataExportPaths.one(id));
    return dataExport.parse(res.json());
  }, 'export');
  expect(answer.status).toBe('done');
  const download = await fetchLink(t, answer.download_url ?? '');
  expect(download.statusCode).toBe(200);
  return download.rawPayload;
}

/** The Bundle and files of an export. */
export async function openArchive(zip: Buffer) {
  const files = await unzip(zip);
  const bundleJson = files.get(dataExportBundlePath);
  if (bundleJson === undefined) throw new Error('The archive holds no Bundle');
  return { files, bundle: JSON.parse(bundleJson.toString('utf8')) as Bundle };
}

/**
 * Gives the member one of every kind an import brings in: a phone photo, a DICOM X-ray, a PNG
 * X-ray, a record with a PDF and an image, a record without files, an appointment and a Dental
 * AI result with two boxes and one that marked nothing.
 */
export async function fillRecord(
  t: TestApp,
  app: FastifyInstance,
  member: SignedIn,
): Promise<void> {
  const create = async (url: string, body: object) => {
    const res = await asMember(app, member, 'POST', url, body);
    expect(res.statusCode, res.body).toBe(201);
  };
  await create(oralPhotoPaths.list, {
    shoot_date: '2025-06-01',
    photo_type: 'Photo',
    note: 'Front teeth after whitening',
    teeth: [17, 16],
    image_link: dataUrlOf(await makePhoneJpeg(), 'image/jpeg'),
  });
  await create(oralPhotoPaths.list, {
    shoot_date: '2023-09-09',
    photo_type: 'X-ray',
    image_link: dicomDataUrl(
      makeDicom({ width: 4, height: 2, values: [0, 100, 200, 300, 400, 500, 600, 700] }),
    ),
  });
  await create(oralPhotoPaths.list, {
    shoot_date: '2024-02-10',
    photo_type: 'X-ray',
    image_link: dataUrlOf(await makePng(), 'image/png'),
  });
  await create(medicalRecordPaths.list, {
    title: 'Insurance card',
    record_date: '2025-01-15',
    note: 'Plan: Delta Dental PPO',
    medical_files: [
      { file_name: 'card front.pdf', file_link: dataUrlOf(makePdf(), 'application/pdf') },
      { file_name: 'Röntgen scan.png', file_link: dataUrlOf(await makePng(30, 20), 'image/png') },
    ],
  });
  await create(medicalRecordPaths.list, {
    title: 'Allergy list',
    record_date: '2025-03-01',
    note: 'Penicillin',
  });
  await create('/api/appointment/', {
    appointment_date: '2030-05-04T09:30:00Z',
    note: 'Cleaning',
    email_alert: false,
    sms_alert: false,
    alert_before: [],
    time_zone: 'America/Chicago',
  });
  await addDentalAiResult(t, member, {
    image: { bytes: await makePng(64, 48), contentType: 'image/png', width: 64, height: 48 },
    detections: [
      { xmin: 1.5, ymin: 2, xmax: 30.25, ymax: 40, label: 'caries', confidence: 0.71 },
      { xmin: 40, ymin: 5, xmax: 60, ymax: 20, label: 'caries', confidence: 0.4321 },
    ],
  });
  // A run that marked nothing: its report names no box, so no model Device either.
  await addDentalAiResult(t, member, {
    image: { bytes: await makePng(32, 32), contentType: 'image/png', width: 32, height: 32 },
  });
}

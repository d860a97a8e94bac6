import { createHash } from 'node:crypto';
import dcmjs from 'dcmjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  medicalRecordPaths,
  oralPhotoPaths,
  shareLinkPaths,
  type MedicalRecord,
  type OralPhoto,
  type ShareLinkCreated,
  type SharedItems,
} from '@dental/contracts';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories } from '#api-test/factories';
import { fetchLink } from '#api-test/support/files';
import { dicomDataUrl, makeDicom, plantedPatient } from '#api-test/fixtures/dicom-test-files';
import { dataUrlOf, makePdf } from '#api-test/fixtures/upload-test-files';

let t: TestApp;
let factory: ReturnType<typeof factories>;

beforeAll(async () => {
  t = await buildTestApp();
  factory = factories(t);
});
afterAll(() => t.close());

type Member = Awaited<ReturnType<typeof factory.loggedInMember>>;

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const xray = makeDicom({
  width: 2,
  height: 2,
  values: [0, 1000, 2000, 4095],
  bitsStored: 12,
  studyDate: '20250314',
  modality: 'IO',
});

async function post<T>(member: Member, path: string, body: unknown): Promise<T> {
  const res = await t.request('POST', path, { token: member.tokens.access, body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<T>();
}

/** A member with an X-ray from a DICOM file and a record with a PDF, both shared. */
async function sharedXray() {
  const member = await factory.loggedInMember();
  const photo = await post<OralPhoto>(member, oralPhotoPaths.list, {
    image_link: dicomDataUrl(xray),
    note: '',
  });
  const record = await post<MedicalRecord>(member, medicalRecordPaths.list, {
    title: 'Letter',
    record_date: '2026-04-02',
    note: '',
    medical_files: [
      { file_name: 'letter.pdf', file_link: dataUrlOf(makePdf(), 'application/pdf') },
    ],
  });
  const link = await post<ShareLinkCreated>(member, shareLinkPaths.list, {
    expires_in_hours: 24,
    label: 'For Dr. Patel',
    photos: [photo.id],
    records: [record.id],
  });
  const res = await t.request('GET', shareLinkPaths.shared(link.token));
  expect(res.statusCode, res.body).toBe(200);
  return { member, photo, link, answer: res.body, shared: res.json<SharedItems>() };
}

/** Every file link a share answers. */
function linksOf(shared: SharedItems): string[] {
  return [
    ...shared.photos.flatMap((photo) => [
      photo.image_link,
      photo.thumbnail_link,
      photo.original_link ?? '',
    ]),
    ...shared.records.flatMap((record) => record.medical_files.map((file) => file.file_link)),
  ];
}

describe("a share's file links", () => {
  it('name no member id, and work for the recipient', async () => {
    const { member, answer, shared } = await sharedXray();
    expect(answer).not.toContain(member.id);
    const links = linksOf(shared);
    expect(links).toHaveLength(4);
    for (const link of links) {
      expect(link).toMatch(/^\/api\/shared-files\//);
      const res = await fetchLink(t, link);
      expect(res.statusCode, link).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });

  it("serve the DICOM original without names and IDs, and leave the owner's copy as it was", async () => {
    const { member, photo, shared } = await sharedXray();
    const recipientCopy = (await fetchLink(t, shared.photos[0]?.original_link ?? '')).rawPayload;
    const text = recipientCopy.toString('latin1');
    for (const planted of Object.values(plantedPatient)) expect(text).not.toContain(planted);
    const read = dcmjs.data.DicomMessage.readFile(Uint8Array.from(recipientCopy).buffer);
    const dataset = dcmjs.data.DicomMetaDictionary.naturalizeDataset(read.dict);
    // Blanked, not removed: the attributes are there and empty; the pixels and the date stay.
    expect(JSON.stringify(dataset.PatientName)).toMatch(/^\[\{"Alphabetic":" *"\}\]$/);
    expect(dataset.PatientID).toMatch(/^ *$/);
    expect(dataset.StudyDate).toBe('20250314');
    const own = await t.request('GET', oralPhotoPaths.one(photo.id), {
      token: member.tokens.access,
    });
    const ownCopy = (await fetchLink(t, own.json<OralPhoto>().original_link ?? '')).rawPayload;
    expect(sha256(ownCopy)).toBe(sha256(xray));
  });

  it('stop with their share, and cannot be moved to another share', async () => {
    const first = await sharedXray();
    const second = await sharedXray();
    const firstLink = first.shared.photos[0]?.image_link ?? '';
    // The first share's file under the second share's id: the signature no longer matches.
    const moved = firstLink.replace(first.link.id, second.link.id);
    expect(moved).not.toBe(firstLink);
    expect((await fetchLink(t, moved)).statusCode).toBe(403);
    const revoked = await t.request('DELETE', shareLinkPaths.one(first.link.id), {
      token: first.member.tokens.access,
    });
    expect(revoked.statusCode).toBe(204);
    for (const link of linksOf(first.shared)) {
      const res = await fetchLink(t, link);
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    }
    expect((await fetchLink(t, second.shared.photos[0]?.image_link ?? '')).statusCode).toBe(200);
  });
});

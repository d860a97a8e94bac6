import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  imageTooLargeMessage,
  maxFilesPerRecord,
  medicalRecordPaths,
  plans,
  unsupportedMedicalFileMessage,
  type MedicalFile,
  type MedicalRecord,
} from '@dental/contracts';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories } from '#api-test/factories';
import { medicalFiles } from '#api/db/schema';
import { fetchLink, fillStorage, storedKeys } from '#api-test/support/files';
import {
  dataUrlOf,
  htmlPage,
  makePdf,
  makePng,
  padPng,
  svgImage,
} from '#api-test/fixtures/upload-test-files';
import { tooManyFilesMessage } from './medical-records.service';

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

type Member = Awaited<ReturnType<ReturnType<typeof factories>['loggedInMember']>>;

const auth = (member: Member) => ({ token: member.tokens.access });
const post = (member: Member, body: unknown) =>
  t.request('POST', medicalRecordPaths.list, { ...auth(member), body });
const list = (member: Member, query = '') =>
  t.request('GET', `${medicalRecordPaths.list}${query}`, auth(member));

async function addRecord(member: Member, fields: Record<string, unknown> = {}) {
  const res = await post(member, {
    title: 'Dental insurance card',
    record_date: '2026-04-02',
    note: 'Front and back',
    medical_files: [],
    ...fields,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<MedicalRecord>();
}

describe('POST /api/medical-record/', () => {
  it('stores a record with a PDF and an image and answers signed download links', async () => {
    const member = await factory.loggedInMember();
    const record = await addRecord(member, {
      medical_files: [
        { file_name: 'claim.pdf', file_link: pdf },
        { file_name: 'card front.png', file_link: png },
      ],
    });
    expect(record).toMatchObject({
      title: 'Dental insurance card',
      record_date: '2026-04-02',
      note: 'Front and back',
    });
    expect(
      record.medical_files.map(({ file_name, content_type }) => ({ file_name, content_type })),
    ).toEqual([
      { file_name: 'claim.pdf', content_type: 'application/pdf' },
      { file_name: 'card front.png', content_type: 'image/png' },
    ]);
    const [claim] = record.medical_files;
    const download = await fetchLink(t, claim?.file_link ?? '');
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.headers['content-disposition']).toMatch(/^attachment; filename="claim.pdf"/);
    expect(download.headers['x-content-type-options']).toBe('nosniff');
    expect(download.rawPayload.equals(makePdf())).toBe(true);
    expect(await storedKeys(t, member.id)).toHaveLength(2);
  });

  it('keeps a PDF sent under a PNG name as a PDF, named .pdf', async () => {
    const member = await factory.loggedInMember();
    const record = await addRecord(member, {
      medical_files: [{ file_name: 'scan.png', file_link: dataUrlOf(makePdf(), 'image/png') }],
    });
    const [file] = record.medical_files;
    expect(file?.file_name).toBe('scan.pdf');
    expect(file?.content_type).toBe('application/pdf');
    const download = await fetchLink(t, file?.file_link ?? '');
    expect(download.headers['content-type']).toBe('application/pdf');
  });

  it.each([
    ['an SVG image', svgImage, 'image/svg+xml'],
    ['an HTML page renamed .png', htmlPage, 'image/png'],
  ])('refuses %s with 415 and stores nothing', async (_name, bytes, claimed) => {
    const member = await factory.loggedInMember();
    const res = await post(member, {
      title: 'X',
      record_date: '2026-04-02',
      medical_files: [
        { file_name: 'ok.pdf', file_link: pdf },
        { file_name: 'bad.png', file_link: dataUrlOf(bytes, claimed) },
      ],
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({ detail: unsupportedMedicalFileMessage });
    expect((await list(member)).json()).toEqual([]);
    expect(await storedKeys(t, member.id)).toEqual([]);
  });

  it('accepts an image of exactly 5 MB and refuses one byte more with the exact message', async () => {
    const member = await factory.loggedInMember();
    const base = await makePng();
    await addRecord(member, {
      medical_files: [
        { file_name: 'x.png', file_link: dataUrlOf(padPng(base, 5 * 1024 * 1024), 'image/png') },
      ],
    });
    const res = await post(member, {
      title: 'Too big',
      record_date: '2026-04-02',
      medical_files: [
        {
          file_name: 'x.png',
          file_link: dataUrlOf(padPng(base, 5 * 1024 * 1024 + 1), 'image/png'),
        },
      ],
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ detail: imageTooLargeMessage });
  });

  it.each([
    ['title', { title: '   ' }],
    ['title', { title: 'x'.repeat(201) }],
    ['record_date', { record_date: '2026-13-01' }],
    ['note', { note: 'x'.repeat(2001) }],
    [
      'medical_files',
      {
        medical_files: Array.from({ length: 5 }, () => ({
          file_name: 'a.pdf',
          file_link: 'data:application/pdf;base64,AAAA',
        })),
      },
    ],
    [
      'medical_files.0.file_name',
      { medical_files: [{ file_name: '', file_link: 'data:application/pdf;base64,AAAA' }] },
    ],
    [
      'medical_files.0.file_link',
      { medical_files: [{ file_name: 'a.pdf', file_link: 'file:///etc/passwd' }] },
    ],
  ])('refuses a bad %s with a field error and stores nothing', async (field, change) => {
    const member = await factory.loggedInMember();
    const res = await post(member, { title: 'Claim', record_date: '2026-04-02', ...change });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ errors: Record<string, string[]> }>().errors).toHaveProperty(field);
    expect((await list(member)).json()).toEqual([]);
  });

  it('refuses files past the plan’s storage with 422 and stores nothing', async () => {
    const member = await factory.loggedInMember();
    await fillStorage(t, member.id, plans.Silver.storageBytes - 10);
    const res = await post(member, {
      title: 'Claim',
      record_date: '2026-04-02',
      medical_files: [{ file_name: 'claim.pdf', file_link: pdf }],
    });
    expect(res.statusCode).toBe(422);
    expect(res.json<{ detail: string }>().detail).toContain('1GB storage of your Silver plan');
    expect((await list(member)).json()).toEqual([]);
    expect(await storedKeys(t, member.id)).toEqual([]);
  });
});

describe('GET /api/medical-record/', () => {
  it('orders by record date either way and filters by date', async () => {
    const member = await factory.loggedInMember();
    const march = await addRecord(member, { record_date: '2026-03-01' });
    const january = await addRecord(member, { record_date: '2026-01-20' });
    const june = await addRecord(member, { record_date: '2026-06-30' });
    const ids = async (query: string) =>
      (await list(member, query)).json<MedicalRecord[]>().map((record) => record.id);

    expect(await ids('')).toEqual([june.id, march.id, january.id]);
    expect(await ids('?sequence=descending')).toEqual([june.id, march.id, january.id]);
    expect(await ids('?sequence=ascending')).toEqual([january.id, march.id, june.id]);
    expect(await ids('?sequence=ascending&startDate=2026-01-21&endDate=2026-06-30')).toEqual([
      march.id,
      june.id,
    ]);
    expect(await ids('?endDate=2026-03-01')).toEqual([march.id, january.id]);
  });

  it('lists each record with its own files', async () => {
    const member = await factory.loggedInMember();
    const withFile = await addRecord(member, {
      record_date: '2026-02-01',
      medical_files: [{ file_name: 'a.pdf', file_link: pdf }],
    });
    await addRecord(member, { record_date: '2026-01-01' });
    const [first, second] = (await list(member)).json<MedicalRecord[]>();
    expect(first?.id).toBe(withFile.id);
    expect(first?.medical_files.map((file) => file.file_name)).toEqual(['a.pdf']);
    expect(second?.medical_files).toEqual([]);
  });

  it.each([
    ['sequence', '?sequence=newest'],
    ['startDate', '?startDate=2026-1-1'],
    ['endDate', '?startDate=2026-02-01&endDate=2026-01-01'],
  ])('refuses a bad %s', async (field, query) => {
    const member = await factory.loggedInMember();
    const res = await list(member, query);
    expect(res.statusCode).toBe(400);
    expect(res.json<{ errors: Record<string, string[]> }>().errors).toHaveProperty(field);
  });
});

describe('one record and its files', () => {
  it('reads, edits and deletes a record with its stored files', async () => {
    const member = await factory.loggedInMember();
    const record = await addRecord(member, {
      medical_files: [{ file_name: 'a.pdf', file_link: pdf }],
    });
    const read = await t.request('GET', medicalRecordPaths.one(record.id), auth(member));
    expect(read.json()).toEqual(record);

    const edited = await t.request('PUT', medicalRecordPaths.one(record.id), {
      ...auth(member),
      body: {
        title: 'Claim 2026',
        record_date: '2026-04-03',
        note: '',
        medical_files: [],
      },
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json<MedicalRecord>()).toMatchObject({
      title: 'Claim 2026',
      record_date: '2026-04-03',
      note: '',
      medical_files: [{ file_name: 'a.pdf' }],
    });

    const bad = await t.request('PUT', medicalRecordPaths.one(record.id), {
      ...auth(member),
      body: { title: '', record_date: '2026-04-03' },
    });
    expect(bad.statusCode).toBe(400);

    const deleted = await t.request('DELETE', medicalRecordPaths.one(record.id), auth(member));
    expect(deleted.statusCode).toBe(204);
    expect(await storedKeys(t, member.id)).toEqual([]);
    expect(await t.db.select().from(medicalFiles)).not.toContainEqual(
      expect.objectContaining({ recordId: record.id }),
    );
    const gone = await t.request('GET', medicalRecordPaths.one(record.id), auth(member));
    expect(gone.statusCode).toBe(404);
  });

  it('adds a file, answering it, and removes it with its blob', async () => {
    const member = await factory.loggedInMember();
    const record = await addRecord(member);
    const added = await t.request('POST', medicalRecordPaths.files(record.id), {
      ...auth(member),
      body: { file_name: 'x-ray report.pdf', file_link: pdf },
    });
    expect(added.statusCode).toBe(201);
    const file = added.json<MedicalFile>();
    expect(file.file_name).toBe('x-ray report.pdf');
    expect((await fetchLink(t, file.file_link)).statusCode).toBe(200);
    const read = await t.request('GET', medicalRecordPaths.one(record.id), auth(member));
    expect(read.json<MedicalRecord>().medical_files).toEqual([file]);

    const removed = await t.request(
      'DELETE',
      medicalRecordPaths.file(record.id, file.id),
      auth(member),
    );
    expect(removed.statusCode).toBe(204);
    expect(await storedKeys(t, member.id)).toEqual([]);
    expect((await fetchLink(t, file.file_link)).statusCode).toBe(404);
    const again = await t.request(
      'DELETE',
      medicalRecordPaths.file(record.id, file.id),
      auth(member),
    );
    expect(again.statusCode).toBe(404);
  });

  it(`holds at most ${maxFilesPerRecord} files`, async () => {
    const member = await factory.loggedInMember();
    const record = await addRecord(member, {
      medical_files: Array.from({ length: 4 }, (_, index) => ({
        file_name: `${index}.pdf`,
        file_link: pdf,
      })),
    });
    for (let added = 4; added < maxFilesPerRecord; added += 1) {
      const res = await t.request('POST', medicalRecordPaths.files(record.id), {
        ...auth(member),
        body: { file_name: `${added}.pdf`, file_link: pdf },
      });
      expect(res.statusCode).toBe(201);
    }
    const res = await t.request('POST', medicalRecordPaths.files(record.id), {
      ...auth(member),
      body: { file_name: 'one-more.pdf', file_link: pdf },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ detail: tooManyFilesMessage });
    expect(await storedKeys(t, member.id)).toHaveLength(maxFilesPerRecord);
  });

  it('refuses a bad file and stores nothing', async () => {
    const member = await factory.loggedInMember();
    const record = await addRecord(member);
    const res = await t.request('POST', medicalRecordPaths.files(record.id), {
      ...auth(member),
      body: { file_name: 'evil.png', file_link: dataUrlOf(svgImage, 'image/png') },
    });
    expect(res.statusCode).toBe(415);
    const missing = await t.request('POST', medicalRecordPaths.files(record.id), {
      ...auth(member),
      body: { file_name: 'a.pdf' },
    });
    expect(missing.statusCode).toBe(400);
    expect(await storedKeys(t, member.id)).toEqual([]);
  });

  it('hides another member’s record and files on read, edit, delete and in the list', async () => {
    const [ann, bob] = await Promise.all([factory.loggedInMember(), factory.loggedInMember()]);
    const record = await addRecord(ann, {
      medical_files: [{ file_name: 'a.pdf', file_link: pdf }],
    });
    const fileId = record.medical_files[0]?.id ?? '';
    const as = auth(bob);
    expect((await t.request('GET', medicalRecordPaths.one(record.id), as)).statusCode).toBe(404);
    const edit = await t.request('PUT', medicalRecordPaths.one(record.id), {
      ...as,
      body: { title: 'Mine', record_date: '2026-01-01' },
    });
    expect(edit.statusCode).toBe(404);
    const addFile = await t.request('POST', medicalRecordPaths.files(record.id), {
      ...as,
      body: { file_name: 'b.pdf', file_link: pdf },
    });
    expect(addFile.statusCode).toBe(404);
    expect(
      (await t.request('DELETE', medicalRecordPaths.file(record.id, fileId), as)).statusCode,
    ).toBe(404);
    expect((await t.request('DELETE', medicalRecordPaths.one(record.id), as)).statusCode).toBe(404);
    expect((await list(bob)).json()).toEqual([]);
    expect(await storedKeys(t, bob.id)).toEqual([]);
    const own = await t.request('GET', medicalRecordPaths.one(record.id), auth(ann));
    expect(own.json()).toEqual(record);
  });

  it('does not remove a file through another record of the same member', async () => {
    const member = await factory.loggedInMember();
    const withFile = await addRecord(member, {
      medical_files: [{ file_name: 'a.pdf', file_link: pdf }],
    });
    const other = await addRecord(member);
    const fileId = withFile.medical_files[0]?.id ?? '';
    const res = await t.request('DELETE', medicalRecordPaths.file(other.id, fileId), auth(member));
    expect(res.statusCode).toBe(404);
    expect(await storedKeys(t, member.id)).toHaveLength(1);
  });
});

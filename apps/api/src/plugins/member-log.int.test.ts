import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountPaths, medicalRecordPaths, type MedicalRecord } from '@dental/contracts';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories } from '#api-test/factories';
import { dataUrlOf, makePdf } from '#api-test/fixtures/upload-test-files';
import { fetchLink } from '#api-test/support/files';

const lines: string[] = [];
let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp({ logStream: { write: (line) => lines.push(line) } });
});
afterAll(() => t.close());

interface Entry {
  reqId?: string;
  msg?: string;
  user_id?: string;
  req?: { url?: string };
}

const entries = () => lines.map((line) => JSON.parse(line) as Entry);

describe('request logs (docs/decisions/request-logging.md)', () => {
  it('carry the member id of an authenticated request, and none on a guest one', async () => {
    const member = await factories(t).loggedInMember();
    const res = await t.request('GET', accountPaths.account, { token: member.tokens.access });
    const reqId = String(res.headers['x-request-id']);
    const guest = await t.request('GET', accountPaths.account);
    expect(guest.statusCode).toBe(401);
    const guestId = String(guest.headers['x-request-id']);

    const completed = entries().filter((entry) => entry.msg === 'request completed');
    expect(completed.find((entry) => entry.reqId === reqId)).toMatchObject({
      user_id: member.id,
    });
    expect(completed.find((entry) => entry.reqId === guestId)).not.toHaveProperty('user_id');
  });

  it('never hold a signed link’s signature or a stored file’s name', async () => {
    const member = await factories(t).loggedInMember();
    const fileName = 'Periodontal chart of Jane Roe.pdf';
    const created = await t.request('POST', medicalRecordPaths.list, {
      token: member.tokens.access,
      body: {
        title: 'Chart',
        record_date: '2026-04-02',
        note: '',
        medical_files: [
          { file_name: fileName, file_link: dataUrlOf(makePdf(), 'application/pdf') },
        ],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const link = created.json<MedicalRecord>().medical_files[0]?.file_link ?? '';
    const signature = new URL(link, 'http://app.test').searchParams.get('sig') ?? '';
    expect(signature).not.toBe('');
    lines.length = 0;

    expect((await fetchLink(t, link)).statusCode).toBe(200);
    // A tampered link is refused and logged as a client error: still without them.
    expect((await fetchLink(t, link.replace('sig=', 'sig=x'))).statusCode).toBe(403);

    const log = lines.join('');
    expect(entries().some((entry) => entry.req?.url?.startsWith('/api/files/'))).toBe(true);
    for (const secret of [signature, fileName, encodeURIComponent(fileName), 'Periodontal']) {
      expect(log).not.toContain(secret);
    }
  });
});

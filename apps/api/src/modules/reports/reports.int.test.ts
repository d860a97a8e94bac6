import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  dentalAiDisclaimer,
  lookedFor,
  markedAreasSentence,
  medicalRecordPaths,
  newOralPhotoRequest,
  plans,
  problemTypes,
  readyReports,
  report,
  reportFailedMessage,
  reportList,
  reportLimitMessage,
  reportPaths,
  reportStarted,
  reviewPaths,
  type Report,
} from '@dental/contracts';
import { oralPhotos, reports } from '#api/db/schema';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories } from '#api-test/factories';
import { dataUrlOf, makePng, makeWebp } from '#api-test/fixtures/upload-test-files';
import { startSmtpInbox, type SmtpInbox } from '#api-test/smtp-inbox';
import { newestAuditRow } from '#api-test/support/audit-rows';
import {
  clinicFor,
  setUpClinic,
  slotAfter,
  summarizedConsultation,
} from '#api-test/support/consultation';
import { addDentalAiResult, fetchLink } from '#api-test/support/files';
import { withJobQueue, type JobQueueApp } from '#api-test/support/job-queue-app';
import { membershipHelpers } from '#api-test/support/membership';
import { readPdf, type ReadPdf } from '#api-test/support/pdf-reader';
import { TestClock } from '#api-test/test-clock';
import { twelveMonthsTo } from './reports.service';

/**
 * Reports end to end: the API over a real database, the job run as the queue runs it, the PDFs
 * read back with pdf.js as a reader would, and the plan's calendar-year uses.
 */
let t: TestApp;
let smtp: SmtpInbox;
let factory: ReturnType<typeof factories>;

type Member = Awaited<ReturnType<ReturnType<typeof factories>['loggedInMember']>>;

beforeAll(async () => {
  smtp = await startSmtpInbox();
  t = await buildTestApp({ env: { SMTP_URL: smtp.url } });
  factory = factories(t);
});

afterAll(async () => {
  await t.close();
  await smtp.close();
});

const dayMs = 24 * 3600_000;
const day = (at: Date) => at.toISOString().slice(0, 10);

function ask(member: Member, body: unknown, locale = 'en-GB', app: TestApp = t) {
  return app.request('POST', reportPaths.root, {
    token: member.tokens.access,
    body,
    headers: { 'accept-language': `${locale},en;q=0.8` },
  });
}

async function asked(member: Member, body: unknown, locale?: string): Promise<string> {
  const res = await ask(member, body, locale);
  expect(res.statusCode, res.body).toBe(202);
  return reportStarted.parse(res.json()).id;
}

async function read(member: Member, id: string, app: TestApp = t): Promise<Report> {
  const res = await app.request('GET', reportPaths.one(id), { token: member.tokens.access });
  expect(res.statusCode, res.body).toBe(200);
  return report.parse(res.json());
}

async function remaining(member: Member, app: TestApp = t) {
  const res = await app.request('GET', reportPaths.root, { token: member.tokens.access });
  expect(res.statusCode, res.body).toBe(200);
  return reportList.parse(res.json()).remaining;
}

/** Runs the report's job, as the queue's worker does, and reads the PDF back. */
async function generated(member: Member, id: string): Promise<{ answer: Report; pdf: ReadPdf }> {
  await t.services.reports.run(id);
  const answer = await read(member, id);
  expect(answer).toMatchObject({ status: 'done', progress: 1, error: null });
  const download = await fetchLink(t, answer.download_url ?? '');
  expect(download.statusCode).toBe(200);
  expect(download.headers['content-type']).toBe('application/pdf');
  return { answer, pdf: await readPdf(download.rawPayload) };
}

const allText = (pdf: ReadPdf) => pdf.text.join(' ');

describe('a treatment history report', () => {
  let member: Member;
  let pdf: ReadPdf;
  let answer: Report;
  let id: string;

  beforeAll(async () => {
    member = await factory.loggedInMember({ username: 'Rosa Diaz' });
    const now = t.clock.now();
    const recent = day(new Date(now.getTime() - 30 * dayMs));
    const xray = await t.services.oralPhotos.create(
      member.id,
      newOralPhotoRequest.parse({
        shoot_date: recent,
        photo_type: 'X-ray',
        image_link: dataUrlOf(await makePng(120, 60), 'image/png'),
        teeth: [46, 16],
        note: 'Bitewing',
      }),
    );
    await t.services.oralPhotos.create(
      member.id,
      newOralPhotoRequest.parse({
        shoot_date: recent,
        photo_type: 'Photo',
        image_link: dataUrlOf(await makeWebp(80, 60), 'image/webp'),
      }),
    );
    // Outside the period: left out.
    await t.services.oralPhotos.create(
      member.id,
      newOralPhotoRequest.parse({
        shoot_date: day(new Date(now.getTime() - 400 * dayMs)),
        photo_type: 'Photo',
        image_link: dataUrlOf(await makePng(), 'image/png'),
        note: 'An old photo',
      }),
    );
    await addDentalAiResult(t, member, {
      image: { bytes: await makeWebp(64, 48), contentType: 'image/webp', width: 64, height: 48 },
      detections: [
        { xmin: 1, ymin: 1, xmax: 10, ymax: 10, label: 'Cavity', confidence: 0.9 },
        { xmin: 20, ymin: 20, xmax: 30, ymax: 30, label: 'Cavity', confidence: 0.6 },
      ],
    });
    await factory.appointment(member, {
      appointment_date: new Date(now.getTime() - 10 * dayMs).toISOString(),
      note: 'Cleaning at Dr. Ortiz',
    });
    const review = await t.request('POST', reviewPaths.root, {
      token: member.tokens.access,
      body: { photos: [xray.id], question: 'Is the dark spot on 46 decay?' },
    });
    expect(review.statusCode, review.body).toBe(201);
    const record = await t.request('POST', medicalRecordPaths.list, {
      token: member.tokens.access,
      body: { title: 'Root canal letter', record_date: recent },
    });
    expect(record.statusCode, record.body).toBe(201);
    const clinic = clinicFor(t.db, t.services.blobs, t.clock);
    const setup = await setUpClinic(clinic);
    await summarizedConsultation(
      clinic,
      setup,
      member.email,
      slotAfter(new Date(now.getTime() - 7 * dayMs), 0),
    );

    id = await asked(member, { kind: 'treatment_history' });
    expect(await read(member, id)).toMatchObject({
      kind: 'treatment_history',
      status: 'queued',
      progress: 0,
      download_url: null,
      from: twelveMonthsTo(day(now)),
      to: day(now),
    });
    ({ answer, pdf } = await generated(member, id));
  }, 60_000);

  it('is a tagged PDF with its title, language and the member’s paper', () => {
    expect(pdf.title).toBe(`Treatment history report, ${answer.from} to ${answer.to}`);
    expect(pdf.language).toBe('en');
    expect(pdf.marked).toBe(true);
    // en-GB prints on A4.
    expect(pdf.size.map(Math.round)).toEqual([595, 842]);
    const roles = pdf.structure.flat().map((node) => node.role);
    expect(roles).toEqual(expect.arrayContaining(['H1', 'H2', 'H3', 'P', 'L', 'LI', 'Figure']));
  });

  it('holds every section with the period’s record, and nothing from before it', () => {
    const text = allText(pdf);
    for (const expected of [
      'Rosa Diaz',
      'Consultations',
      'Condition: Mild gingivitis',
      'Summary: Floss daily.',
      'Return visit: In 6 months',
      'Appointments',
      'Cleaning at Dr. Ortiz',
      'Dental AI results',
      lookedFor.caries,
      markedAreasSentence(2),
      dentalAiDisclaimer,
      'Dentists’ reviews',
      'Your question: Is the dark spot on 46 decay?',
      'The dentist has not answered yet.',
      'Photos and X-rays by tooth',
      'Tooth 16 (upper right first molar)',
      'Tooth 46 (lower right first molar)',
      'Medical records',
      'Root canal letter (0 files)',
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).not.toContain('An old photo');
  });

  it('draws each image once: the summary’s, the Dental AI result’s (WebP) and two photos', () => {
    expect(pdf.images.reduce((sum, count) => sum + count, 0)).toBe(4);
    const figures = pdf.structure.flat().filter((node) => node.role === 'Figure');
    expect(figures).toHaveLength(4);
    expect(figures.map((figure) => figure.alt)).toEqual(
      expect.arrayContaining([
        'The image Dental AI looked at, with 2 marked areas: Cavity in red.',
        expect.stringContaining('X-ray taken on'),
      ]),
    );
  });

  it('e-mails the member that it is ready, with a link and no health details', async () => {
    const mail = await smtp.waitForMessageTo(member.email, /report is ready/);
    expect(mail.subject).toBe('Your Dental Companion report is ready');
    expect(mail.text).toContain('http://app.test/reports');
    for (const health of ['gingivitis', 'Cavity', 'Root canal', 'Treatment history']) {
      expect(mail.text).not.toContain(health);
    }
  });

  it('leaves audit rows: the request and each read are reads of the report', async () => {
    await read(member, id);
    expect(await newestAuditRow(t, member.id)).toMatchObject({
      action: 'read',
      resourceType: 'report',
      resourceId: id,
      result: 'success',
    });
  });
});

describe('a receipts and history summary report', () => {
  it('lists each payment of the period and the history in counts and dates', async () => {
    const member = await factory.loggedInMember();
    const paymentId = await membershipHelpers(t).buy(member, 'Gold');
    await factory.appointment(member, {
      appointment_date: new Date(t.clock.now().getTime() - 3 * dayMs).toISOString(),
      note: 'Check-up',
    });

    const id = await asked(member, { kind: 'summary' }, 'en-US');
    const { answer, pdf } = await generated(member, id);
    expect(pdf.title).toBe(`Receipts and history summary report, ${answer.from} to ${answer.to}`);
    // en-US prints on Letter.
    expect(pdf.size.map(Math.round)).toEqual([612, 792]);
    expect(pdf.marked).toBe(true);
    expect(pdf.images).toEqual(pdf.images.map(() => 0));
    const text = allText(pdf);
    // The receipt as the Receipts screen shows it: its number, and test mode's card.
    const receiptNumber = (await membershipHelpers(t).payment(paymentId))?.receiptNumber ?? '';
    expect(receiptNumber).toMatch(/^DC-\d{4}-\d{6}$/);
    expect(text).toContain(
      `receipt ${receiptNumber}: Gold membership, 1 year, $29.99 (USD), card ending 4242`,
    );
    expect(text).toContain('Total paid: $29.99.');
    expect(text).toContain(
      `Appointments: 1 (${day(new Date(t.clock.now().getTime() - 3 * dayMs))})`,
    );
    expect(text).toContain('Consultations: none');
    expect(await remaining(member)).toEqual({
      treatment_history: plans.Gold.treatmentHistoryReportsPerYear,
      summary: plans.Gold.summaryReportsPerYear - 1,
    });
  });
});

describe('Home’s notice of a ready report', () => {
  async function readyOf(member: Member) {
    const res = await t.request('GET', reportPaths.ready, { token: member.tokens.access });
    expect(res.statusCode, res.body).toBe(200);
    return readyReports.parse(res.json()).results;
  }

  it('names a finished report, to its member only, until the member downloads it', async () => {
    const member = await factory.loggedInMember();
    const other = await factory.loggedInMember();
    const id = await asked(member, { kind: 'treatment_history' });
    expect(await readyOf(member)).toEqual([]);
    await t.services.reports.run(id);
    expect(await readyOf(member)).toEqual([{ id, kind: 'treatment_history' }]);
    expect(await newestAuditRow(t, member.id)).toMatchObject({
      actor: member.id,
      action: 'read',
      resourceType: 'report_list',
      result: 'success',
    });
    expect(await readyOf(other)).toEqual([]);
    const answer = await read(member, id);
    expect((await fetchLink(t, answer.download_url ?? '')).statusCode).toBe(200);
    expect(await readyOf(member)).toEqual([]);
  });

  it('names it for 7 days after it was finished, and never once deleted', async () => {
    const member = await factory.loggedInMember();
    const kept = await asked(member, { kind: 'treatment_history' });
    const deleted = await asked(member, { kind: 'treatment_history' });
    await t.services.reports.run(kept);
    await t.services.reports.run(deleted);
    const res = await t.request('DELETE', reportPaths.one(deleted), {
      token: member.tokens.access,
    });
    expect(res.statusCode, res.body).toBe(204);
    // Finished 7 days ago to the millisecond: still named; a millisecond earlier: no longer.
    const finishedAt = (ms: number) =>
      t.db
        .update(reports)
        .set({ finishedAt: new Date(t.clock.now().getTime() - ms) })
        .where(eq(reports.id, kept));
    await finishedAt(7 * dayMs);
    expect(await readyOf(member)).toEqual([{ id: kept, kind: 'treatment_history' }]);
    await finishedAt(7 * dayMs + 1);
    expect(await readyOf(member)).toEqual([]);
  });
});

describe('the plan’s uses', () => {
  it('refuses a period that ends before it starts', async () => {
    const member = await factory.loggedInMember();
    const res = await ask(member, { kind: 'summary', from: '2026-05-02', to: '2026-05-01' });
    expect(res.statusCode).toBe(400);
  });

  it('gives a failed report’s use back', async () => {
    const member = await factory.loggedInMember();
    await factory.oralPhoto(member);
    const [photo] = await t.db.select().from(oralPhotos).where(eq(oralPhotos.userId, member.id));
    await t.services.blobs.delete(photo?.blobKey ?? '');
    const id = await asked(member, { kind: 'treatment_history', from: '2025-01-01' });
    expect((await remaining(member)).treatment_history).toBe(
      plans.Silver.treatmentHistoryReportsPerYear - 1,
    );
    await t.services.reports.run(id);
    expect(await read(member, id)).toMatchObject({
      status: 'failed',
      download_url: null,
      error: reportFailedMessage,
    });
    expect((await remaining(member)).treatment_history).toBe(
      plans.Silver.treatmentHistoryReportsPerYear,
    );
  });

  it('lets one of several requests at once take the last use', async () => {
    const member = await factory.loggedInMember();
    // More than two at once, so that without the lock some would count before any inserts.
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => ask(member, { kind: 'summary' })),
    );
    expect(answers.map((res) => res.statusCode).sort()).toEqual([202, 403, 403, 403, 403, 403]);
    const refused = answers.find((res) => res.statusCode === 403);
    expect(refused?.json()).toMatchObject({
      status: 403,
      type: problemTypes.planLimitReached,
      detail: reportLimitMessage(
        'summary',
        plans.Silver,
        t.clock.now().getUTCFullYear(),
        plans.Gold,
      ),
    });
    expect(await t.db.select().from(reports).where(eq(reports.userId, member.id))).toHaveLength(1);
  });

  it('keeps a deleted report’s use, and removes its PDF', async () => {
    const member = await factory.loggedInMember();
    const id = await asked(member, { kind: 'summary' });
    const { answer } = await generated(member, id);
    const deleted = await t.request('DELETE', reportPaths.one(id), { token: member.tokens.access });
    expect(deleted.statusCode).toBe(204);
    expect(await newestAuditRow(t, member.id)).toMatchObject({
      action: 'delete',
      resourceType: 'report',
      resourceId: id,
    });
    const gone = await t.request('GET', reportPaths.one(id), { token: member.tokens.access });
    expect(gone.statusCode).toBe(404);
    expect((await fetchLink(t, answer.download_url ?? '')).statusCode).toBe(404);
    const list = reportList.parse(
      (await t.request('GET', reportPaths.root, { token: member.tokens.access })).json(),
    );
    expect(list).toEqual({
      results: [],
      remaining: { treatment_history: plans.Silver.treatmentHistoryReportsPerYear, summary: 0 },
    });
    expect((await ask(member, { kind: 'summary' })).statusCode).toBe(403);
  });

  it('answers 404 for another member’s report, on read and delete', async () => {
    const owner = await factory.loggedInMember();
    const other = await factory.loggedInMember();
    const id = await asked(owner, { kind: 'treatment_history' });
    for (const method of ['GET', 'DELETE'] as const) {
      const res = await t.request(method, reportPaths.one(id), { token: other.tokens.access });
      expect(res.statusCode).toBe(404);
    }
    expect((await remaining(other)).treatment_history).toBe(
      plans.Silver.treatmentHistoryReportsPerYear,
    );
    expect((await read(owner, id)).status).toBe('queued');
  });
});

describe('the calendar year', () => {
  it('counts uses from 1 January (UTC), not from the membership’s anniversary', async () => {
    const clock = new TestClock(new Date('2026-12-31T22:00:00.000Z'));
    const app = await buildTestApp({ clock });
    try {
      const appFactory = factories(app);
      const registered = await appFactory.member();
      let member = { ...registered, tokens: await appFactory.login(registered) };
      const summary = { kind: 'summary', from: '2026-01-01', to: '2026-12-31' };
      expect((await ask(member, summary, 'en-GB', app)).statusCode).toBe(202);
      const refused = await ask(member, summary, 'en-GB', app);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({
        detail:
          'You have used all 1 receipts and history summary reports of your Silver plan for 2026. The Gold plan raises it to 5 a year.',
      });
      expect(await remaining(member, app)).toEqual({ treatment_history: 15, summary: 0 });

      clock.advance(3 * 3600_000);
      member = { ...registered, tokens: await appFactory.login(registered) };
      expect(await remaining(member, app)).toEqual({ treatment_history: 15, summary: 1 });
      const id = reportStarted.parse((await ask(member, summary, 'en-GB', app)).json()).id;
      expect((await read(member, id, app)).created_at).toBe('2027-01-01T01:00:00.000Z');
      expect((await ask(member, summary, 'en-GB', app)).statusCode).toBe(403);
    } finally {
      await app.close();
    }
  });
});

describe('the queue', () => {
  let api: JobQueueApp;

  beforeAll(async () => {
    api = await withJobQueue(t);
  });
  afterAll(() => api.close());

  it('generates a report through its job and reports progress until done', async () => {
    const member = await factory.loggedInMember();
    const res = await api.app.inject({
      method: 'POST',
      url: reportPaths.root,
      headers: { authorization: `Bearer ${member.tokens.access}` },
      payload: { kind: 'treatment_history' },
    });
    expect(res.statusCode, res.body).toBe(202);
    const { id } = reportStarted.parse(res.json());
    let answer: Report | undefined;
    for (let attempt = 0; attempt < 120 && answer?.status !== 'done'; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      answer = await read(member, id);
      expect(answer.status).not.toBe('failed');
    }
    expect(answer).toMatchObject({ status: 'done', progress: 1 });
  }, 45_000);
});

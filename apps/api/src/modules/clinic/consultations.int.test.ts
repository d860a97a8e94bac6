import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  clinicConsultationPage,
  clinicConsultationPaths as paths,
  bookingDentalAiNotFoundMessage,
  clinicSummary,
  complaint as complaintSchema,
  consultationPaths,
  reservationDetail,
  splitDoctorImages,
  summaryTooEarlyMessage,
} from '@dental/contracts';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories } from '#api-test/factories';
import { makePng } from '#api-test/fixtures/upload-test-files';
import { startSmtpInbox, type SmtpInbox } from '#api-test/smtp-inbox';
import { clinicStaff, everyDay } from '#api-test/support/clinic-consultations';
import { addDentalAiResult, fetchLink } from '#api-test/support/files';
import { auditEvents } from '#api/db/schema';

/** The e-mail's own words (summary-notices.ts), checked as the patient reads them. */
const summaryReadySubject = 'A note from your dentist is ready';

type Clinic = ReturnType<typeof clinicStaff>;
type Staff = Awaited<ReturnType<Clinic['practitioner']>>;

let inbox: SmtpInbox;
let t: TestApp;
let clinic: Clinic;
let patient: Awaited<ReturnType<ReturnType<typeof factories>['loggedInMember']>>;
let admin: Awaited<ReturnType<Clinic['admin']>>;
let ada: Staff;
let kenji: Staff;
let questionIds: string[];
let png: Buffer;

const minuteMs = 60_000;
const dayMs = 24 * 60 * minuteMs;

beforeAll(async () => {
  inbox = await startSmtpInbox();
  t = await buildTestApp({ env: { SMTP_URL: inbox.url, PUBLIC_URL: 'https://dental.example' } });
  clinic = clinicStaff(t);
  patient = await factories(t).loggedInMember({ username: 'Grace Patient' });
  admin = await clinic.admin();
  ada = await clinic.practitioner();
  kenji = await clinic.practitioner();
  for (const doctor of [ada, kenji]) {
    await clinic.send('PUT', paths.availability(doctor.doctorId), doctor.tokens.access, {
      timezone: 'UTC',
      slot_minutes: 30,
      weekly: everyDay('00:00', '24:00'),
      time_off: [],
    });
  }
  questionIds = [
    await t.services.clinic.addQuestion('What brings you to the consultation?'),
    await t.services.clinic.addQuestion('Any medicines or allergies?'),
  ];
  png = await makePng();
});
afterAll(async () => {
  await t.close();
  await inbox.close();
});

/** A consultation with `doctor` at `time`, as the clinic records one made by phone (the
 *  time may be past). */
const recordedConsultation = (doctor: Staff, time: Date) =>
  t.services.clinic.addReservation({
    email: patient.email,
    doctorName: doctor.name,
    time,
    timeZone: 'Europe/Paris',
  });

let nextDay = 2;
/** The patient's booking request with `doctor` some days ahead, with the Dental AI results to
 *  show. */
function book(
  doctor: Staff,
  answers: string[],
  dentalAi: string[] = [],
  token = patient.tokens.access,
) {
  const day = Math.floor(t.clock.now().getTime() / dayMs) + nextDay++;
  return t.request('POST', consultationPaths.reservations, {
    token,
    body: {
      doctor: doctor.doctorId,
      reservation_time: new Date(day * dayMs + 10 * 60 * minuteMs).toISOString(),
      timezone: 'Europe/Paris',
      answers: questionIds.map((question, index) => ({ question, answer: answers[index] })),
      dental_ai: dentalAi,
    },
  });
}

/** A consultation the patient books with their answers, some days ahead. */
async function bookedConsultation(
  doctor: Staff,
  answers: string[],
  dentalAi: string[] = [],
): Promise<string> {
  const res = await book(doctor, answers, dentalAi);
  expect(res.statusCode, res.body).toBe(201);
  return reservationDetail.parse(res.json()).id;
}

/** Past consultations go back one day more each time, so none collides with another. */
let daysBack = 1;
const pastConsultation = (doctor: Staff) =>
  recordedConsultation(doctor, new Date(t.clock.now().getTime() - daysBack++ * dayMs));

async function list(token: string, query: string) {
  const res = await clinic.send('GET', `${paths.consultations}?${query}`, token);
  expect(res.statusCode, res.body).toBe(200);
  return clinicConsultationPage.parse(res.json());
}

const ids = (page: { results: { id: string }[] }) => page.results.map((entry) => entry.id);

const staffRows = (patientId: string, actor: string) =>
  t.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.memberId, patientId), eq(auditEvents.actor, actor)));

const summaryBody = (images: string[] = []) => ({
  doctor_condition: 'Enamel wear on 21',
  doctor_summary: 'Use a soft brush',
  doctor_return: 'In 6 months',
  images,
});
/** The summary-ready e-mails the patient has received. */
const summaryNotices = () =>
  inbox.messages.filter(
    (message) =>
      message.subject === summaryReadySubject &&
      [message.to ?? []].flat().some((to) => to.text.toLowerCase() === patient.email.toLowerCase()),
  );
const pngLink = () => `data:image/png;base64,${png.toString('base64')}`;

describe('listing consultations', () => {
  it('a practitioner sees only their own, with the patient and answers; an admin sees all', async () => {
    const id = await bookedConsultation(ada, ['A chipped front tooth', 'None']);
    const mine = await list(ada.tokens.access, 'period=future');
    const entry = mine.results.find((consultation) => consultation.id === id);
    expect(entry).toMatchObject({
      timezone: 'Europe/Paris',
      practitioner: { id: ada.doctorId, name: ada.name },
      patient: { id: patient.id, username: 'Grace Patient' },
      answers: [
        { label: 'What brings you to the consultation?', answer: 'A chipped front tooth' },
        { label: 'Any medicines or allergies?', answer: 'None' },
      ],
      summary: null,
    });
    expect(
      mine.results.every((consultation) => consultation.practitioner.id === ada.doctorId),
    ).toBe(true);
    expect(ids(await list(kenji.tokens.access, 'period=future'))).not.toContain(id);
    expect(ids(await list(admin.tokens.access, 'period=future'))).toContain(id);
  });

  it('today is the practitioner’s calendar day; what has begun is history too', async () => {
    const now = t.clock.now();
    const startOfMinute = new Date(Math.floor(now.getTime() / minuteMs) * minuteMs);
    const id = await recordedConsultation(ada, startOfMinute);
    expect(ids(await list(ada.tokens.access, 'period=today'))).toContain(id);
    expect(ids(await list(ada.tokens.access, 'period=history'))).toContain(id);
    expect(ids(await list(ada.tokens.access, 'period=future'))).not.toContain(id);
    expect(ids(await list(kenji.tokens.access, 'period=today'))).not.toContain(id);
  });

  it('each consultation shown is written to its patient’s trail with the staff member as actor', async () => {
    const id = await bookedConsultation(ada, ['Bleeding gums', 'Aspirin']);
    await list(ada.tokens.access, 'period=future');
    const rows = await staffRows(patient.id, ada.id);
    expect(rows).toContainEqual(
      expect.objectContaining({
        action: 'read',
        resourceType: 'consultation_answers',
        resourceId: id,
        result: 'success',
      }),
    );
    // Kenji's lists never showed the patient: nothing of his is in their trail.
    await list(kenji.tokens.access, 'period=future');
    expect(await staffRows(patient.id, kenji.id)).toEqual([]);
  });

  it('pages with next until the last page', async () => {
    const carla = await clinic.practitioner();
    for (let i = 0; i < 3; i++) await pastConsultation(carla);
    const first = await list(carla.tokens.access, 'period=history&limit=2');
    expect(first.results).toHaveLength(2);
    expect(first.next).toBe(`${paths.consultations}?period=history&limit=2&offset=2`);
    const second = await list(carla.tokens.access, (first.next ?? '').split('?')[1] ?? '');
    expect(second.results).toHaveLength(1);
    expect(second.next).toBeNull();
    expect(new Set([...ids(first), ...ids(second)]).size).toBe(3);
  });

  it('refuses an unknown period with a 400 problem', async () => {
    const res = await clinic.send(
      'GET',
      `${paths.consultations}?period=tomorrow`,
      ada.tokens.access,
    );
    expect(res.statusCode).toBe(400);
  });
});

describe('Dental AI results attached to a booking', () => {
  it('the booked practitioner sees them with images only they and the practice open; each is audited', async () => {
    const result = await addDentalAiResult(t, patient);
    const id = await bookedConsultation(ada, ['A dark spot on 36', 'None'], [result.id]);

    const booked = await t.request('GET', consultationPaths.reservation(id), {
      token: patient.tokens.access,
    });
    expect(reservationDetail.parse(booked.json()).dental_ai.map((entry) => entry.id)).toEqual([
      result.id,
    ]);

    const entry = (await list(ada.tokens.access, 'period=future')).results.find(
      (consultation) => consultation.id === id,
    );
    expect(entry?.dental_ai).toEqual([
      { ...result, image_url: expect.stringContaining('/api/care-team-files/') as unknown },
    ]);
    // The staff link names neither the member nor the stored key.
    expect(entry?.dental_ai[0]?.image_url).not.toContain(patient.id);
    const image = await fetchLink(t, entry?.dental_ai[0]?.image_url ?? '');
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(await staffRows(patient.id, ada.id)).toContainEqual(
      expect.objectContaining({
        action: 'read',
        resourceType: 'dental_ai_result',
        resourceId: result.id,
      }),
    );

    // Another practitioner never lists the booking, so never sees the result.
    const kenjis = await list(kenji.tokens.access, 'period=future');
    expect(ids(kenjis)).not.toContain(id);
    expect(
      await staffRows(patient.id, kenji.id).then((rows) =>
        rows.filter((row) => row.resourceType === 'dental_ai_result'),
      ),
    ).toEqual([]);

    // Cancelled, the booking no longer opens the image.
    const cancelled = await t.request('DELETE', consultationPaths.reservation(id), {
      token: patient.tokens.access,
    });
    expect(cancelled.statusCode).toBe(204);
    expect((await fetchLink(t, entry?.dental_ai[0]?.image_url ?? '')).statusCode).toBe(404);
  });

  it('a result the patient did not attach is not opened by a staff link (404)', async () => {
    const attached = await addDentalAiResult(t, patient);
    const other = await addDentalAiResult(t, patient);
    const id = await bookedConsultation(ada, ['Sensitive teeth', 'None'], [attached.id]);
    const entry = (await list(ada.tokens.access, 'period=future')).results.find(
      (consultation) => consultation.id === id,
    );
    // A staff link made for the result the patient kept to themselves.
    const unattached = t.services.staffFiles.scope(ada.id, {
      photos: [],
      records: [],
      dentalAi: [other],
    }).dentalAi[0]?.image_url;
    expect((await fetchLink(t, unattached ?? '')).statusCode).toBe(404);
    expect((await fetchLink(t, entry?.dental_ai[0]?.image_url ?? '')).statusCode).toBe(200);
  });

  it('another member’s result cannot be attached: 404 and nothing is booked', async () => {
    const stranger = await factories(t).loggedInMember();
    const theirs = await addDentalAiResult(t, stranger);
    const before = ids(await list(ada.tokens.access, 'period=future'));
    const res = await book(ada, ['Toothache', 'None'], [theirs.id]);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ detail: bookingDentalAiNotFoundMessage });
    expect(ids(await list(ada.tokens.access, 'period=future'))).toEqual(before);
  });

  it('more than five results, or an id that is not one, is a 400 and nothing is booked', async () => {
    const many = await Promise.all(
      Array.from({ length: 6 }, () => addDentalAiResult(t, patient).then((entry) => entry.id)),
    );
    const before = ids(await list(ada.tokens.access, 'period=future'));
    expect((await book(ada, ['Toothache', 'None'], many)).statusCode).toBe(400);
    expect((await book(ada, ['Toothache', 'None'], ['not-an-id'])).statusCode).toBe(400);
    expect(ids(await list(ada.tokens.access, 'period=future'))).toEqual(before);
  });
});

describe('writing the summary', () => {
  it('is refused for another practitioner’s consultation (404), allowed for an admin', async () => {
    const id = await pastConsultation(ada);
    const byKenji = await clinic.send('PUT', paths.summary(id), kenji.tokens.access, summaryBody());
    expect(byKenji.statusCode).toBe(404);
    const listed = await list(ada.tokens.access, 'period=history');
    expect(listed.results.find((entry) => entry.id === id)?.summary).toBeNull();
    const byAdmin = await clinic.send('PUT', paths.summary(id), admin.tokens.access, summaryBody());
    expect(byAdmin.statusCode, byAdmin.body).toBe(200);
  });

  it('is refused before the consultation’s time (409)', async () => {
    const id = await bookedConsultation(ada, ['Toothache', 'None']);
    const res = await clinic.send('PUT', paths.summary(id), ada.tokens.access, summaryBody());
    expect(res.statusCode).toBe(409);
    expect(res.json<{ detail: string }>().detail).toBe(summaryTooEarlyMessage);
  });

  it('shows at once in the patient’s reservation record, and the patient is e-mailed once, without health details', async () => {
    const id = await pastConsultation(ada);
    const noticesBefore = summaryNotices().length;
    const res = await clinic.send(
      'PUT',
      paths.summary(id),
      ada.tokens.access,
      summaryBody([pngLink()]),
    );
    expect(res.statusCode, res.body).toBe(200);
    const written = clinicSummary.parse(res.json());
    expect(written).toMatchObject({
      doctor_condition: 'Enamel wear on 21',
      doctor_summary: 'Use a soft brush',
      doctor_return: 'In 6 months',
    });
    expect(written.images).toHaveLength(1);

    const detail = reservationDetail.parse(
      (
        await t.request('GET', consultationPaths.reservation(id), { token: patient.tokens.access })
      ).json(),
    );
    expect(detail.complaint_id).not.toBeNull();
    const read = await t.request('GET', consultationPaths.complaint(detail.complaint_id ?? ''), {
      token: patient.tokens.access,
    });
    const complaint = complaintSchema.parse(read.json());
    expect(complaint).toMatchObject({
      doctor_condition: 'Enamel wear on 21',
      doctor_summary: 'Use a soft brush',
      doctor_return: 'In 6 months',
    });
    const [image] = splitDoctorImages(complaint.doctor_images);
    const served = await t.app.inject({ method: 'GET', url: image ?? '' });
    expect(served.statusCode).toBe(200);

    const mail = await inbox.waitForMessageTo(patient.email, new RegExp(summaryReadySubject));
    const everything = `${mail.subject ?? ''}\n${mail.text ?? ''}\n${String(mail.html)}`;
    for (const detailText of ['Enamel', 'soft brush', '6 months', ada.name, 'Grace']) {
      expect(everything).not.toContain(detailText);
    }
    expect(mail.text).toContain('https://dental.example/virtual-consultation/reservation-record');

    const rows = await staffRows(patient.id, ada.id);
    expect(rows).toContainEqual(
      expect.objectContaining({
        action: 'create',
        resourceType: 'consultation_summary',
        resourceId: id,
      }),
    );

    // A correction replaces the summary and tells the patient nothing new.
    const edit = await clinic.send('PUT', paths.summary(id), ada.tokens.access, {
      ...summaryBody(),
      doctor_return: 'In 3 months',
    });
    expect(edit.statusCode).toBe(200);
    expect(clinicSummary.parse(edit.json())).toMatchObject({
      doctor_return: 'In 3 months',
      images: [],
    });
    const again = await t.request('GET', consultationPaths.complaint(detail.complaint_id ?? ''), {
      token: patient.tokens.access,
    });
    expect(complaintSchema.parse(again.json()).doctor_return).toBe('In 3 months');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(summaryNotices()).toHaveLength(noticesBefore + 1);
  });

  it.each([
    ['without a condition', { ...summaryBody(), doctor_condition: '  ' }, 400],
    [
      'with more than 4 images',
      summaryBody(Array.from({ length: 5 }, () => 'data:image/png;base64,AA')),
      400,
    ],
    ['with a file that is no image', summaryBody(['data:image/png;base64,bm90IGFuIGltYWdl']), 415],
  ])('refuses a summary %s and records nothing', async (_case, body, status) => {
    const id = await pastConsultation(ada);
    const res = await clinic.send('PUT', paths.summary(id), ada.tokens.access, body);
    expect(res.statusCode).toBe(status);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    const listed = await list(ada.tokens.access, 'period=history');
    expect(listed.results.find((entry) => entry.id === id)?.summary).toBeNull();
  });
});

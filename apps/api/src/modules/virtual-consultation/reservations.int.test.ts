import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bookingLeadMinutes,
  configPath,
  consultationForm,
  consultationPaths,
  doctorsWithSlots,
  pastReservationCancelMessage,
  reservationAnswer,
  reservationDetail,
  reservationList,
  reservationListLimit,
  slotTakenMessage,
  slotUnavailableMessage,
  splitDoctorImages,
  unknownTimeZoneMessage,
  complaint as complaintSchema,
  type ReservationDetail,
} from '@dental/contracts';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories } from '#api-test/factories';
import { startSmtpInbox, type SmtpInbox } from '#api-test/smtp-inbox';
import { reservations } from '#api/db/schema';
import { makePng } from '#api-test/fixtures/upload-test-files';
import { atClockShift } from '#api-test/support/clock-shift';
import {
  clinicFor,
  setUpClinic,
  slotAfter,
  type ClinicSetup,
} from '#api-test/support/consultation';
import type { ClinicService } from './clinic.service';
import {
  missingAnswersMessage,
  unknownDoctorMessage,
  unknownQuestionMessage,
  duplicateAnswerMessage,
} from './virtual-consultation.service';

let inbox: SmtpInbox;
let t: TestApp;
let factory: ReturnType<typeof factories>;
let clinic: ClinicService;
let setup: ClinicSetup;
let png: Buffer;

type Member = Awaited<ReturnType<ReturnType<typeof factories>['loggedInMember']>>;

beforeAll(async () => {
  inbox = await startSmtpInbox();
  t = await buildTestApp({ env: { SMTP_URL: inbox.url, PUBLIC_URL: 'https://dental.example' } });
  factory = factories(t);
  clinic = clinicFor(t.db, t.services.blobs, t.clock);
  setup = await setUpClinic(clinic);
  png = await makePng();
});
afterAll(async () => {
  await t.close();
  await inbox.close();
});

const hour = 60 * 60 * 1000;
let nextSlot = 0;
/** A distinct free half hour for each booking of this file. */
const freshSlot = () => slotAfter(t.clock.now(), 2 + nextSlot++);

const answersFor = (texts: readonly string[] = ['A chipped front tooth', 'None']) =>
  setup.questionIds.map((question, index) => ({ question, answer: texts[index] ?? 'None' }));

const bookBody = (time: Date, overrides: Record<string, unknown> = {}) => ({
  doctor: setup.doctorId,
  reservation_time: time.toISOString(),
  timezone: 'Europe/Paris',
  answers: answersFor(),
  ...overrides,
});

const book = (member: Member, body: unknown) =>
  t.request('POST', consultationPaths.reservations, { token: member.tokens.access, body });
const list = (member: Member, period: string) =>
  t.request('GET', `${consultationPaths.reservations}?period=${period}`, {
    token: member.tokens.access,
  });
const get = (member: Member, url: string) => t.request('GET', url, { token: member.tokens.access });

async function booked(member: Member, time = freshSlot()): Promise<ReservationDetail> {
  const res = await book(member, bookBody(time));
  expect(res.statusCode, res.body).toBe(201);
  return reservationDetail.parse(res.json());
}

/** Runs `work` an hour after the reservation's time, then moves the shared clock back. */
function whenPast<T>(
  reservation: ReservationDetail,
  members: readonly Member[],
  work: () => Promise<T>,
): Promise<T> {
  const shift = new Date(reservation.reservation_time).getTime() - t.clock.now().getTime() + hour;
  return atClockShift(t.clock, factory, shift, members, work);
}

describe('booking', () => {
  it('offers the form and the doctors’ free slots, and needs a session', async () => {
    const member = await factory.loggedInMember();
    const form = consultationForm.parse((await get(member, consultationPaths.form)).json());
    expect(form.questions.map((question) => question.id)).toEqual(setup.questionIds);
    expect(form.questions.map((question) => question.order)).toEqual([1, 2]);

    const res = await get(member, `${consultationPaths.doctors}?days=1`);
    expect(res.statusCode).toBe(200);
    const doctor = doctorsWithSlots.parse(res.json()).find((d) => d.id === setup.doctorId);
    // Around the clock for one day: 48 half hours, none sooner than the booking lead time.
    expect(doctor?.slots.length).toBeGreaterThanOrEqual(47);
    const earliest = t.clock.now().getTime() + bookingLeadMinutes * 60_000;
    expect(doctor?.slots.every((slot) => new Date(slot).getTime() >= earliest)).toBe(true);

    expect((await t.request('GET', consultationPaths.doctors)).statusCode).toBe(401);
    expect((await t.request('GET', consultationPaths.form)).statusCode).toBe(401);
    expect((await get(member, `${consultationPaths.doctors}?days=15`)).statusCode).toBe(400);
    expect((await get(member, `${consultationPaths.doctors}?from=yesterday`)).statusCode).toBe(400);
  });

  it('books a slot, answers in form order, hides the slot and e-mails only date, time and doctor', async () => {
    const member = await factory.loggedInMember();
    const time = freshSlot();
    const res = await book(member, bookBody(time, { answers: [...answersFor()].reverse() }));
    expect(res.statusCode, res.body).toBe(201);
    const detail = reservationDetail.parse(res.json());
    expect(detail).toMatchObject({
      timezone: 'Europe/Paris',
      reservation_time: time.toISOString(),
      doctor_aggregation: { doctor: { name: setup.doctorName } },
      upcoming: true,
      complaint_id: null,
    });
    expect(detail.answers.map((a) => [a.form_and_questions.order, a.answer])).toEqual([
      [1, 'A chipped front tooth'],
      [2, 'None'],
    ]);
    expect(detail.answer).toEqual(detail.answers.map((a) => a.id));

    const slots = doctorsWithSlots.parse(
      (await get(member, `${consultationPaths.doctors}?days=2`)).json(),
    );
    expect(slots.find((d) => d.id === setup.doctorId)?.slots).not.toContain(time.toISOString());

    const mail = await inbox.waitForMessageTo(member.email);
    expect(mail.text).toContain(setup.doctorName);
    expect(mail.text).toContain('(Europe/Paris)');
    expect(mail.text).toContain('https://dental.example/virtual-consultation/reservation-record');
    expect(mail.text).not.toContain('chipped');
    expect(mail.html).not.toContain('chipped');
  });

  it('refuses bad input with field errors and books nothing', async () => {
    const member = await factory.loggedInMember();
    const time = freshSlot();
    const cases: [unknown, string, string][] = [
      [bookBody(time, { doctor: crypto.randomUUID() }), 'doctor', unknownDoctorMessage],
      [bookBody(time, { doctor: 'nope' }), 'doctor', 'Choose a doctor.'],
      [bookBody(time, { timezone: 'Mars/Olympus' }), 'timezone', unknownTimeZoneMessage],
      [bookBody(new Date(time.getTime() + 60_000)), 'reservation_time', slotUnavailableMessage],
      [bookBody(slotAfter(t.clock.now(), -4)), 'reservation_time', slotUnavailableMessage],
      [
        bookBody(new Date(t.clock.now().getTime() + 61 * 24 * hour)),
        'reservation_time',
        slotUnavailableMessage,
      ],
      [
        bookBody(time, { reservation_time: 'soon' }),
        'reservation_time',
        'Choose a consultation time.',
      ],
      [bookBody(time, { answers: answersFor().slice(1) }), 'answers', missingAnswersMessage],
      [
        bookBody(time, {
          answers: [...answersFor(), { question: crypto.randomUUID(), answer: 'x' }],
        }),
        'answers.2.question',
        unknownQuestionMessage,
      ],
      [
        bookBody(time, { answers: [...answersFor(), answersFor()[0]] }),
        'answers.2.question',
        duplicateAnswerMessage,
      ],
      [
        bookBody(time, { answers: answersFor(['   ', 'None']) }),
        'answers.0.answer',
        'Please answer this question.',
      ],
    ];
    for (const [body, field, message] of cases) {
      const res = await book(member, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(res.json<{ errors: Record<string, string[]> }>().errors[field]).toContain(message);
    }
    expect((await book(member, [])).statusCode).toBe(400);
    expect(
      (await t.request('POST', consultationPaths.reservations, { body: bookBody(time) }))
        .statusCode,
    ).toBe(401);
    expect(reservationList.parse((await list(member, 'future')).json())).toEqual([]);
  });

  it('books a slot once: the second patient gets 409, and a cancelled slot can be booked again', async () => {
    const [ann, bob] = await Promise.all([factory.loggedInMember(), factory.loggedInMember()]);
    const time = freshSlot();
    const first = await booked(ann, time);
    const second = await book(bob, bookBody(time));
    expect(second.statusCode).toBe(409);
    expect(second.json()).toMatchObject({ detail: slotTakenMessage });

    expect(
      (
        await t.request('DELETE', consultationPaths.reservation(first.id), {
          token: ann.tokens.access,
        })
      ).statusCode,
    ).toBe(204);
    await booked(bob, time);
  });

  it('lets exactly one of two patients racing for the same slot win', async () => {
    const members = await Promise.all([1, 2, 3, 4].map(() => factory.loggedInMember()));
    const time = freshSlot();
    const answers = await Promise.all(members.map((member) => book(member, bookBody(time))));
    const statuses = answers.map((res) => res.statusCode).sort();
    expect(statuses).toEqual([201, 409, 409, 409]);
    const rows = await t.db.select().from(reservations);
    expect(rows.filter((row) => row.reservationTime.getTime() === time.getTime())).toHaveLength(1);
  });
});

describe('reservation history', () => {
  it('lists upcoming soonest first and past latest first, and reloads by period', async () => {
    const member = await factory.loggedInMember();
    const later = await booked(member, slotAfter(t.clock.now(), 200 + nextSlot++));
    const sooner = await booked(member);
    const future = reservationList.parse((await list(member, 'future')).json());
    expect(future.map((r) => r.id)).toEqual([sooner.id, later.id]);
    expect(future[0]).toEqual({
      id: sooner.id,
      timezone: sooner.timezone,
      reservation_time: sooner.reservation_time,
      doctor_aggregation: { doctor: { name: setup.doctorName } },
      answer: sooner.answer,
    });
    expect(reservationList.parse((await list(member, 'history')).json())).toEqual([]);

    await whenPast(later, [member], async () => {
      const history = reservationList.parse((await list(member, 'history')).json());
      expect(history.map((r) => r.id)).toEqual([later.id, sooner.id]);
      expect(reservationList.parse((await list(member, 'future')).json())).toEqual([]);
    });
  });

  it('refuses a missing or unknown period', async () => {
    const member = await factory.loggedInMember();
    for (const query of ['', '?period=past', '?period=']) {
      const res = await get(member, `${consultationPaths.reservations}${query}`);
      expect(res.statusCode, query).toBe(400);
    }
    expect(
      (await t.request('GET', `${consultationPaths.reservations}?period=future`)).statusCode,
    ).toBe(401);
  });

  it(`answers at most ${String(reservationListLimit)} reservations`, async () => {
    const member = await factory.loggedInMember();
    const start = slotAfter(t.clock.now(), 3000);
    await t.db.insert(reservations).values(
      Array.from({ length: reservationListLimit + 5 }, (_, index) => ({
        userId: member.id,
        doctorId: setup.doctorId,
        timeZone: 'UTC',
        reservationTime: new Date(start.getTime() + index * 30 * 60 * 1000),
      })),
    );
    const future = reservationList.parse((await list(member, 'future')).json());
    expect(future).toHaveLength(reservationListLimit);
    expect(future[0]?.reservation_time).toBe(start.toISOString());
  });
});

describe('reservation details, answers and doctor summary', () => {
  it('answers one reservation and each answer in the documented shapes', async () => {
    const member = await factory.loggedInMember();
    const reservation = await booked(member);
    const res = await get(member, consultationPaths.reservation(reservation.id));
    expect(res.statusCode).toBe(200);
    expect(reservationDetail.parse(res.json())).toEqual(reservation);

    const [first] = reservation.answers;
    const answer = await get(member, consultationPaths.answer(first?.id ?? ''));
    expect(answer.statusCode).toBe(200);
    expect(reservationAnswer.parse(answer.json())).toEqual({
      id: first?.id,
      answer: 'A chipped front tooth',
      form_and_questions: {
        question: { question_label: first?.form_and_questions.question.question_label },
        order: 1,
      },
    });
  });

  it('keeps the wording a question was answered with when the form changes later', async () => {
    const member = await factory.loggedInMember();
    const reservation = await booked(member);
    const original = reservation.answers[0]?.form_and_questions.question.question_label;
    await clinic.editQuestion(setup.questionIds[0] ?? '', 'A reworded question?');
    try {
      const again = reservationDetail.parse(
        (await get(member, consultationPaths.reservation(reservation.id))).json(),
      );
      expect(again.answers[0]?.form_and_questions.question.question_label).toBe(original);
    } finally {
      await clinic.editQuestion(setup.questionIds[0] ?? '', original ?? '');
    }
  });

  it('shows the doctor summary of a past consultation with its images as signed links', async () => {
    const member = await factory.loggedInMember();
    const reservation = await booked(member);
    await whenPast(reservation, [member], async () => {
      const complaintId = await clinic.recordSummary(reservation.id, {
        condition: 'Mild gingivitis',
        summary: 'Floss daily and use a soft brush.',
        returnVisit: 'In 6 months',
        images: [
          { dataUrl: `data:image/png;base64,${png.toString('base64')}`, fileName: 'a.png' },
          { dataUrl: `data:image/png;base64,${png.toString('base64')}`, fileName: 'b.png' },
        ],
      });
      const detail = reservationDetail.parse(
        (await get(member, consultationPaths.reservation(reservation.id))).json(),
      );
      expect(detail).toMatchObject({ upcoming: false, complaint_id: complaintId });

      const res = await get(member, consultationPaths.complaint(complaintId));
      expect(res.statusCode).toBe(200);
      const summary = complaintSchema.parse(res.json());
      expect(summary).toMatchObject({
        id: complaintId,
        doctor_condition: 'Mild gingivitis',
        doctor_summary: 'Floss daily and use a soft brush.',
        doctor_return: 'In 6 months',
      });
      const links = splitDoctorImages(summary.doctor_images);
      expect(summary.doctor_images.split('||')).toHaveLength(2);
      for (const link of links) {
        const image = await t.request('GET', link);
        expect(image.statusCode).toBe(200);
        expect(image.headers['content-type']).toBe('image/png');
        expect(image.rawPayload.subarray(1, 4).toString()).toBe('PNG');
      }

      // An hour after the consultation every blob written by this test is past the sweep's grace
      // period: the summary keeps its images, while one no row refers to (a crash between the
      // blob store and the row) goes.
      const orphan = `consultations/${reservation.id}/00000000-0000-4000-8000-000000000009.png`;
      await t.services.blobs.put(orphan, png, 'image/png');
      await t.services.orphanSweep.sweep();
      expect(await t.services.blobs.exists(orphan)).toBe(false);
      const again = complaintSchema.parse(
        (await get(member, consultationPaths.complaint(complaintId))).json(),
      );
      for (const link of splitDoctorImages(again.doctor_images)) {
        expect((await t.request('GET', link)).statusCode).toBe(200);
      }
    });
  });

  it('hides another member’s reservation, answers and summary (404 on read and cancel)', async () => {
    const [ann, bob] = await Promise.all([factory.loggedInMember(), factory.loggedInMember()]);
    const reservation = await booked(ann);
    await whenPast(reservation, [ann, bob], async () => {
      const complaintId = await clinic.recordSummary(reservation.id, {
        condition: 'Healthy',
        summary: 'Keep going.',
        returnVisit: 'In 1 year',
        images: [],
      });
      expect((await get(bob, consultationPaths.complaint(complaintId))).statusCode).toBe(404);
      expect((await get(ann, consultationPaths.complaint(complaintId))).statusCode).toBe(200);
      expect(
        complaintSchema.parse((await get(ann, consultationPaths.complaint(complaintId))).json())
          .doctor_images,
      ).toBe('');
    });
    expect((await get(bob, consultationPaths.reservation(reservation.id))).statusCode).toBe(404);
    expect((await get(bob, consultationPaths.answer(reservation.answer[0] ?? ''))).statusCode).toBe(
      404,
    );
    const cancel = await t.request('DELETE', consultationPaths.reservation(reservation.id), {
      token: bob.tokens.access,
    });
    expect(cancel.statusCode).toBe(404);
    expect(reservationList.parse((await list(bob, 'future')).json())).toEqual([]);
    expect((await get(ann, consultationPaths.reservation(reservation.id))).statusCode).toBe(200);
  });

  it('answers 404 for unknown ids and 400 for ids that are not ids', async () => {
    const member = await factory.loggedInMember();
    const unknown = crypto.randomUUID();
    for (const url of [
      consultationPaths.reservation(unknown),
      consultationPaths.answer(unknown),
      consultationPaths.complaint(unknown),
    ]) {
      expect((await get(member, url)).statusCode, url).toBe(404);
    }
    for (const url of [
      consultationPaths.reservation('12'),
      consultationPaths.answer('x'),
      consultationPaths.complaint('x'),
    ]) {
      const res = await get(member, url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json<{ errors: Record<string, string[]> }>().errors.id).toBeDefined();
    }
    expect((await t.request('GET', consultationPaths.reservation(unknown))).statusCode).toBe(401);
  });
});

describe('cancellation', () => {
  it('cancels an upcoming reservation: gone from the list and from details', async () => {
    const member = await factory.loggedInMember();
    const reservation = await booked(member);
    const res = await t.request('DELETE', consultationPaths.reservation(reservation.id), {
      token: member.tokens.access,
    });
    expect(res.statusCode).toBe(204);
    // The patient is told by e-mail: doctor, date and time, no answer given in the form.
    const mail = await inbox.waitForMessageTo(member.email);
    expect(mail.subject).toMatch(/^Cancelled: your virtual consultation on .+ \(Europe\/Paris\)$/);
    expect(mail.text).toContain(`Your virtual consultation with ${setup.doctorName} on `);
    expect(mail.text).toContain('is cancelled.');
    expect(mail.text).toContain('https://dental.example/virtual-consultation');
    expect(mail.html).not.toContain('chipped');
    expect(reservationList.parse((await list(member, 'future')).json())).toEqual([]);
    expect((await get(member, consultationPaths.reservation(reservation.id))).statusCode).toBe(404);
    expect(
      (await get(member, consultationPaths.answer(reservation.answer[0] ?? ''))).statusCode,
    ).toBe(404);
    const again = await t.request('DELETE', consultationPaths.reservation(reservation.id), {
      token: member.tokens.access,
    });
    expect(again.statusCode).toBe(404);
  });

  it('refuses to cancel a past reservation with 409 and keeps it', async () => {
    const member = await factory.loggedInMember();
    const reservation = await booked(member);
    await whenPast(reservation, [member], async () => {
      const res = await t.request('DELETE', consultationPaths.reservation(reservation.id), {
        token: member.tokens.access,
      });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ status: 409, detail: pastReservationCancelMessage });
      const history = reservationList.parse((await list(member, 'history')).json());
      expect(history.map((r) => r.id)).toEqual([reservation.id]);
    });
  });
});

describe('the hub’s reservation page', () => {
  it('is our own booking page unless RESERVATION_URL names an external one', async () => {
    expect((await t.request('GET', configPath)).json()).not.toHaveProperty('reservation_url');
    const external = await buildTestApp({
      env: { RESERVATION_URL: 'https://book.dental.example/consultation' },
    });
    try {
      expect((await external.request('GET', configPath)).json()).toMatchObject({
        reservation_url: 'https://book.dental.example/consultation',
      });
    } finally {
      await external.close();
    }
  });
});

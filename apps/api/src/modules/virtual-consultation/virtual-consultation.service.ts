import {
  bookingDentalAiNotFoundMessage,
  bookingHorizonDays,
  bookingLeadMinutes,
  doctorImagesSeparator,
  pastReservationCancelMessage,
  reservationNotFoundMessage,
  type PageRequest,
  slotTakenMessage,
  maxUpcomingReservations,
  upcomingReservationsLimitMessage,
  slotUnavailableMessage,
  type BookReservationRequest,
  type Complaint,
  type ConsultationForm,
  type DentalAiResult,
  type DoctorWithSlots,
  type Reservation,
  type ReservationAnswer,
  type ReservationDetail,
  type ReservationPeriod,
  type SlotQuery,
} from '@dental/contracts';
import type { Mailer } from '#api/adapters/mailer';
import { pageOf, type Page } from '#api/lib/pagination';
import type { Clock } from '#api/clock';
import type { ReservationAnswerRow } from '#api/db/schema';
import { BadRequest, Conflict, NotFound, UnprocessableEntity } from '#api/domain-errors';
import type { LinkedFile } from '#api/lib/signed-links';
import { portraitLink } from '#api/lib/portrait-link';
import { escapeHtml } from '#api/lib/html';
import type { ErrorLogger } from '#api/logger';
import type {
  ComplaintWithImages,
  ConsultationRepository,
  ReservationDetailRow,
  ReservationListRow,
} from './virtual-consultation.repository';
import { formatInZone, isOfferedSlot, slotsBetween } from './slots';

export const answerNotFoundMessage = 'This answer was not found.';
export const complaintNotFoundMessage = 'This doctor summary was not found.';
export const unknownDoctorMessage = 'Choose one of the listed doctors.';
export const unknownQuestionMessage = 'This question is not part of the consultation form.';
export const duplicateAnswerMessage = 'This question is answered more than once.';
export const missingAnswersMessage = 'Please answer every question of the consultation form.';

/** Signs short-lived links to stored files (SignedLinks). */
export interface FileLinks {
  sign(file: LinkedFile): string;
}

/** The member's own Dental AI results among the ids (another member's or a deleted one is left
 *  out), as the Dental AI module answers them: what a booking may attach. */
export interface BookingDentalAi {
  getMany(userId: string, ids: readonly string[]): Promise<DentalAiResult[]>;
}

export interface ConsultationSettings {
  publicUrl: string;
  companyName: string;
}

const dayMs = 24 * 60 * 60 * 1000;
const defaultWindowDays = 7;

function toAnswer(row: ReservationAnswerRow): ReservationAnswer {
  return {
    id: row.id,
    answer: row.answer,
    form_and_questions: {
      question: { question_label: row.questionLabel },
      order: row.questionOrder,
    },
  };
}

function toReservation(row: ReservationListRow): Reservation {
  return {
    id: row.id,
    timezone: row.timeZone,
    reservation_time: row.reservationTime.toISOString(),
    doctor_aggregation: { doctor: { name: row.doctorName } },
    answer: row.answerIds,
  };
}

/** Virtual consultations (docs/product/consultation.md): booking, history, details,
 *  cancellation. */
export class ConsultationService {
  constructor(
    private readonly repository: ConsultationRepository,
    private readonly mailer: Mailer,
    private readonly links: FileLinks,
    private readonly clock: Clock,
    private readonly settings: ConsultationSettings,
    private readonly log: ErrorLogger,
    private readonly dentalAi: BookingDentalAi,
  ) {}

  /** Upcoming reservations soonest first, or past ones latest first; at most 100. */
  async list(
    userId: string,
    period: ReservationPeriod,
    asked: PageRequest,
  ): Promise<Page<Reservation>> {
    const rows = await this.repository.listReservations(
      userId,
      period === 'future',
      this.clock.now(),
      asked,
    );
    const page = pageOf(rows, asked);
    return { ...page, items: page.items.map(toReservation) };
  }

  /** One reservation with its answers in form order, so the details view needs one call. */
  async get(userId: string, id: string): Promise<ReservationDetail> {
    const row = await this.repository.findReservation(userId, id);
    if (row === undefined) throw new NotFound(reservationNotFoundMessage);
    return this.toDetail(row, await this.dentalAi.getMany(userId, row.dentalAiIds));
  }

  async answer(userId: string, answerId: string): Promise<ReservationAnswer> {
    const row = await this.repository.findAnswer(userId, answerId);
    if (row === undefined) throw new NotFound(answerNotFoundMessage);
    return toAnswer(row);
  }

  /** The doctor summary; its images are signed links joined by '||'
   *  (docs/product/consultation.md#reservation-calls). */
  async complaint(userId: string, complaintId: string): Promise<Complaint> {
    const row = await this.repository.findComplaint(userId, complaintId);
    if (row === undefined) throw new NotFound(complaintNotFoundMessage);
    return this.toComplaint(row);
  }

  /** Cancels an upcoming reservation and frees its slot, then confirms it by e-mail; a past one
   *  cannot be cancelled. */
  async cancel(userId: string, id: string): Promise<void> {
    const reservation = await this.repository.findReservation(userId, id);
    const outcome = await this.repository.cancel(userId, id, this.clock.now());
    if (outcome === 'missing') throw new NotFound(reservationNotFoundMessage);
    if (outcome === 'past') throw new Conflict(pastReservationCancelMessage);
    const email = await this.repository.emailOf(userId);
    if (email !== undefined && reservation !== undefined) {
      await this.sendReservationMail('cancelled', email, {
        doctorName: reservation.doctorName,
        time: reservation.reservationTime,
        timeZone: reservation.timeZone,
      });
    }
  }

  /** Every doctor with the free slots of the window, from the booking lead time on. */
  async doctors(query: SlotQuery): Promise<DoctorWithSlots[]> {
    const now = this.clock.now();
    const earliest = new Date(now.getTime() + bookingLeadMinutes * 60_000);
    const requested = query.from === undefined ? earliest : new Date(query.from);
    const from = requested < earliest ? earliest : requested;
    const horizon = new Date(now.getTime() + bookingHorizonDays * dayMs);
    const windowEnd = new Date(from.getTime() + (query.days ?? defaultWindowDays) * dayMs);
    const to = windowEnd > horizon ? horizon : windowEnd;
    const doctors = await this.repository.doctorsWithWindows();
    const booked =
      from < to
        ? await this.repository.bookedSlots(
            doctors.map((doctor) => doctor.id),
            from,
            to,
          )
        : new Set<string>();
    return doctors.map((doctor) => ({
      id: doctor.id,
      name: doctor.name,
      timezone: doctor.timeZone,
      slots:
        from < to
          ? slotsBetween(doctor, from, to)
              .filter((slot) => !booked.has(`${doctor.id}|${String(slot.getTime())}`))
              .map((slot) => slot.toISOString())
          : [],
      slot_minutes: doctor.slotMinutes,
      bio: doctor.bio,
      photo_url: portraitLink(this.links, doctor),
    }));
  }

  /** The questions a patient answers when booking, in order. */
  async form(): Promise<ConsultationForm> {
    const form = await this.repository.activeForm();
    if (form === undefined) throw new NotFound('The consultation form has not been set up yet.');
    return {
      id: form.id,
      questions: form.questions.map((question, index) => ({
        id: question.id,
        question_label: question.label,
        order: index + 1,
      })),
    };
  }

  /**
   * Books a free slot of a doctor with the answers to every question of the form, then e-mails
   * a confirmation. Two patients racing for one slot: the database lets exactly one win.
   */
  async book(userId: string, request: BookReservationRequest): Promise<ReservationDetail> {
    const now = this.clock.now();
    const doctor = await this.repository.doctorWithWindows(request.doctor);
    if (doctor === undefined) {
      throw new BadRequest(unknownDoctorMessage, { doctor: [unknownDoctorMessage] });
    }
    const time = new Date(request.reservation_time);
    const horizon = new Date(now.getTime() + bookingHorizonDays * dayMs);
    if (time <= now || time > horizon || !isOfferedSlot(doctor, time)) {
      throw new BadRequest(slotUnavailableMessage, { reservation_time: [slotUnavailableMessage] });
    }
    const answers = await this.matchAnswers(request.answers);
    const dentalAiIds = [...new Set(request.dental_ai ?? [])];
    const ownResults = await this.dentalAi.getMany(userId, dentalAiIds);
    if (ownResults.length !== dentalAiIds.length)
      throw new NotFound(bookingDentalAiNotFoundMessage);
    const inserted = await this.repository.insertReservation(
      {
        userId,
        doctorId: doctor.id,
        timeZone: request.timezone,
        reservationTime: time,
        answers,
        dentalAiIds,
      },
      now,
      maxUpcomingReservations,
    );
    if (inserted === 'slot-taken') throw new Conflict(slotTakenMessage);
    if (inserted === 'dental-ai-gone') throw new NotFound(bookingDentalAiNotFoundMessage);
    if (inserted === 'upcoming-limit') {
      throw new UnprocessableEntity(upcomingReservationsLimitMessage);
    }
    const email = await this.repository.emailOf(userId);
    if (email !== undefined)
      await this.sendReservationMail('booked', email, {
        doctorName: doctor.name,
        time,
        timeZone: request.timezone,
      });
    return this.get(userId, inserted.id);
  }

  /** Each current question answered exactly once; the label and order are kept with it. */
  private async matchAnswers(given: BookReservationRequest['answers']) {
    const form = await this.repository.activeForm();
    const questions = new Map(
      (form?.questions ?? []).map((question, index) => [
        question.id,
        { question, order: index + 1 },
      ]),
    );
    const errors: Record<string, string[]> = {};
    const seen = new Set<string>();
    given.forEach((answer, index) => {
      if (!questions.has(answer.question)) {
        errors[`answers.${String(index)}.question`] = [unknownQuestionMessage];
      } else if (seen.has(answer.question)) {
        errors[`answers.${String(index)}.question`] = [duplicateAnswerMessage];
      }
      seen.add(answer.question);
    });
    if (Object.keys(errors).length > 0) {
      throw new BadRequest(Object.values(errors)[0]?.[0] ?? unknownQuestionMessage, errors);
    }
    if (seen.size !== questions.size) {
      throw new BadRequest(missingAnswersMessage, { answers: [missingAnswersMessage] });
    }
    return given.map((answer) => {
      const entry = questions.get(answer.question);
      if (entry === undefined) throw new Error('answers were matched above');
      return {
        questionId: entry.question.id,
        questionLabel: entry.question.label,
        questionOrder: entry.order,
        answer: answer.answer,
      };
    });
  }

  /** The booking or cancellation confirmation: date, time and doctor only, no health detail
   *  travels by e-mail. A failure is logged; the booking or cancellation stands. */
  private async sendReservationMail(
    kind: 'booked' | 'cancelled',
    email: string,
    { doctorName, time, timeZone }: { doctorName: string; time: Date; timeZone: string },
  ): Promise<void> {
    const when = `${formatInZone(time, timeZone)} (${timeZone})`;
    const { companyName, publicUrl } = this.settings;
    const mail =
      kind === 'booked'
        ? {
            subject: `Your virtual consultation on ${when}`,
            sentence: `Your virtual consultation with ${doctorName} is booked for ${when}.`,
            action: 'You can see or cancel it',
            place: 'Reservation Record',
            link: `${publicUrl}/virtual-consultation/reservation-record`,
          }
        : {
            subject: `Cancelled: your virtual consultation on ${when}`,
            sentence: `Your virtual consultation with ${doctorName} on ${when} is cancelled.`,
            action: 'You can book another one',
            place: 'Virtual Consultation',
            link: `${publicUrl}/virtual-consultation`,
          };
    const text = [
      'Hello,',
      '',
      mail.sentence,
      '',
      `${mail.action} under ${mail.place}: ${mail.link}`,
      '',
      companyName,
    ].join('\n');
    const html = [
      '<p>Hello,</p>',
      `<p>${escapeHtml(mail.sentence)}</p>`,
      `<p>${escapeHtml(mail.action)} under <a href="${escapeHtml(mail.link)}">${escapeHtml(mail.place)}</a>.</p>`,
      `<p>${escapeHtml(companyName)}</p>`,
    ].join('\n');
    try {
      await this.mailer.send({ to: email, subject: mail.subject, text, html });
    } catch (error) {
      this.log.error({ err: error }, `the consultation ${kind} e-mail could not be sent`);
    }
  }

  private toDetail(row: ReservationDetailRow, dentalAi: DentalAiResult[]): ReservationDetail {
    return {
      ...toReservation(row),
      answers: row.answers.map(toAnswer),
      dental_ai: dentalAi,
      upcoming: row.reservationTime > this.clock.now(),
      complaint_id: row.complaintId,
    };
  }

  private toComplaint(row: ComplaintWithImages): Complaint {
    return {
      id: row.id,
      doctor_condition: row.condition,
      doctor_summary: row.summary,
      doctor_return: row.returnVisit,
      doctor_images: row.images
        .map((image) =>
          this.links.sign({
            key: image.blobKey,
            contentType: image.contentType,
            disposition: 'inline',
            fileName: image.fileName,
          }),
        )
        .join(doctorImagesSeparator),
    };
  }
}

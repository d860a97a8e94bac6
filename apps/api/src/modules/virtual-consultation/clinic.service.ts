import { randomUUID } from 'node:crypto';
import { isIanaTimeZone, summaryTooEarlyMessage } from '@dental/contracts';
import type { BlobStore } from '#api/adapters/blob-store/blob-store';
import type { Clock } from '#api/clock';
import { DomainError, type FieldErrors } from '#api/domain-errors';
import type { UploadAcceptance } from '../uploads/upload-acceptance';
import { complaintImagePrefix } from '../files/file-storage';
import type {
  ClinicRepository,
  ClinicReservationRow,
  NewComplaintImage,
} from './clinic.repository';
import { formatInZone, type WeeklyWindow } from './slots';

/** A clinic command that cannot be carried out; its message is shown to the staff member, by
 *  the clinic command or as the console's problem with `status` (400 unless said). */
export class ClinicError extends DomainError {
  constructor(
    detail: string,
    readonly status = 400,
    errors?: FieldErrors,
  ) {
    super(detail, errors);
  }
}

/** Told once a consultation has its first summary, after it is stored. */
export interface SummaryNotices {
  summaryReady(reservationId: string): Promise<void>;
}

export interface DoctorSummary {
  condition: string;
  summary: string;
  returnVisit: string;
  /** Image files as data links (`data:…;base64,…`), checked by their bytes. */
  images: readonly { dataUrl: string; fileName: string }[];
}

/** The three doctors and the form an empty embedded database starts with. */
const seedDoctors: { name: string; timeZone: string; windows: WeeklyWindow[] }[] = [
  {
    name: 'Dr. Amelia Hart',
    timeZone: 'America/New_York',
    windows: [1, 2, 3, 4, 5].map((weekday) => ({
      weekday,
      startMinute: 9 * 60,
      endMinute: 17 * 60,
    })),
  },
  {
    name: 'Dr. Kenji Sato',
    timeZone: 'Asia/Tokyo',
    windows: [1, 3, 5, 6].map((weekday) => ({ weekday, startMinute: 10 * 60, endMinute: 18 * 60 })),
  },
  {
    name: 'Dr. Sofia Marquez',
    timeZone: 'Europe/Madrid',
    windows: [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({
      weekday,
      startMinute: 8 * 60,
      endMinute: 20 * 60,
    })),
  },
];

const seedQuestions = [
  'What would you like to discuss with the dentist?',
  'Do you have pain or sensitivity? Where, and since when?',
  'Do you take any medicines or have allergies we should know about?',
];

/**
 * Seeds 3 doctors with availability and one form where there are none (the embedded start);
 * safe to repeat.
 */
export function seedConsultations(
  clinic: ClinicRepository,
): Promise<{ doctors: number; questions: number }> {
  return clinic.transaction(async (repository) => {
    let doctorCount = 0;
    let questionCount = 0;
    if ((await repository.countDoctors()) === 0) {
      for (const doctor of seedDoctors) {
        const row = await repository.insertDoctor(doctor.name, doctor.timeZone);
        if (row === null) continue;
        for (const window of doctor.windows) await repository.addWindow(row.id, window);
        doctorCount++;
      }
    }
    if ((await repository.countForms()) === 0) {
      const formId = await repository.currentFormId();
      for (const label of seedQuestions) {
        await repository.addQuestion(formId, label);
        questionCount++;
      }
    }
    return { doctors: doctorCount, questions: questionCount };
  });
}

/** The clinic side of consultations (there are no clinic screens:
 *  docs/product/consultation.md#clinic): run by the clinic command. */
export class ClinicService {
  constructor(
    private readonly repository: ClinicRepository,
    private readonly blobs: BlobStore,
    private readonly uploads: UploadAcceptance,
    private readonly clock: Clock,
    /** Absent where no patient is told (the clinic command's own build). */
    private readonly notices?: SummaryNotices,
  ) {}

  async addDoctor(name: string, timeZone: string): Promise<string> {
    const trimmed = name.trim();
    if (trimmed === '') throw new ClinicError('A doctor needs a name.');
    if (!isIanaTimeZone(timeZone)) {
      throw new ClinicError(`${timeZone} is not a time zone (use a name like Europe/London).`);
    }
    const row = await this.repository.insertDoctor(trimmed, timeZone);
    if (row === null) throw new ClinicError(`A doctor named ${trimmed} already exists.`);
    return row.id;
  }

  async addAvailability(doctorName: string, window: WeeklyWindow): Promise<void> {
    const doctor = await this.doctorNamed(doctorName);
    if (!Number.isInteger(window.weekday) || window.weekday < 1 || window.weekday > 7) {
      throw new ClinicError('The weekday must be mon … sun (or 1 … 7).');
    }
    if (window.startMinute >= window.endMinute) {
      throw new ClinicError('The end time must be after the start time.');
    }
    await this.repository.addWindow(doctor.id, window);
  }

  async clearAvailability(doctorName: string): Promise<number> {
    const doctor = await this.doctorNamed(doctorName);
    return this.repository.clearWindows(doctor.id);
  }

  doctors() {
    return this.repository.doctors();
  }

  async questions() {
    return this.repository.questions(await this.repository.currentFormId());
  }

  /** Adds a question at the end, or at a 1-based position (later questions move down). */
  async addQuestion(label: string, position?: number): Promise<string> {
    const trimmed = requireText(label, 'A question needs a label.');
    return this.repository.transaction(async (repository) => {
      const formId = await repository.currentFormId();
      const current = await repository.questions(formId);
      const added = await repository.addQuestion(formId, trimmed);
      if (position !== undefined) {
        if (!Number.isInteger(position) || position < 1 || position > current.length + 1) {
          throw new ClinicError(`The position must be 1 … ${String(current.length + 1)}.`);
        }
        const ids = current.map((question) => question.id);
        ids.splice(position - 1, 0, added.id);
        await repository.renumber(ids);
      }
      return added.id;
    });
  }

  /** Corrects a question's wording; answers already given keep the wording they were asked. */
  async editQuestion(id: string, label: string): Promise<void> {
    const trimmed = requireText(label, 'A question needs a label.');
    if (!(await this.repository.relabelQuestion(id, trimmed))) throw noQuestion(id);
  }

  async removeQuestion(id: string): Promise<void> {
    if (!(await this.repository.archiveQuestion(id, this.clock.now()))) throw noQuestion(id);
  }

  /** Moves a question to a 1-based position. */
  async moveQuestion(id: string, position: number): Promise<void> {
    await this.repository.transaction(async (repository) => {
      const current = await repository.questions(await repository.currentFormId());
      const ids = current.map((question) => question.id).filter((questionId) => questionId !== id);
      if (ids.length === current.length) throw noQuestion(id);
      if (!Number.isInteger(position) || position < 1 || position > current.length) {
        throw new ClinicError(`The position must be 1 … ${String(current.length)}.`);
      }
      ids.splice(position - 1, 0, id);
      await repository.renumber(ids);
    });
  }

  /** Records a consultation arranged outside the app (by phone); its time may be in the past. */
  async addReservation(input: {
    email: string;
    doctorName: string;
    time: Date;
    timeZone: string;
  }): Promise<string> {
    if (Number.isNaN(input.time.getTime())) {
      throw new ClinicError('The time must be an ISO date-time, e.g. 2026-03-02T09:30:00Z.');
    }
    if (!isIanaTimeZone(input.timeZone)) {
      throw new ClinicError(
        `${input.timeZone} is not a time zone (use a name like Europe/London).`,
      );
    }
    const userId = await this.repository.findUserIdByEmail(input.email);
    if (userId === undefined) throw new ClinicError(`No member has the e-mail ${input.email}.`);
    const doctor = await this.doctorNamed(input.doctorName);
    if (doctor.removedAt !== null) {
      throw new ClinicError(`${doctor.name} has been removed and takes no new consultations.`);
    }
    const id = await this.repository.insertReservation({
      userId,
      doctorId: doctor.id,
      timeZone: input.timeZone,
      reservationTime: input.time,
    });
    if (id === null) {
      throw new ClinicError(
        `${doctor.name} is already booked at ${formatInZone(input.time, doctor.timeZone)} (${doctor.timeZone}).`,
      );
    }
    return id;
  }

  reservations(options: { period?: 'future' | 'history'; email?: string; limit?: number }) {
    const limit = options.limit ?? 50;
    if (!Number.isInteger(limit) || limit < 1 || limit > 500) {
      throw new ClinicError('The limit must be 1 … 500.');
    }
    return this.repository.reservations({
      upcoming: options.period === undefined ? undefined : options.period === 'future',
      email: options.email,
      now: this.clock.now(),
      limit,
    }) satisfies Promise<ClinicReservationRow[]>;
  }

  /**
   * Records (or replaces) the doctor summary of a past consultation. Images go through the one
   * upload acceptance path, are stored before the rows that name them, and replaced images are
   * deleted after the rows are gone. The patient is told of the first summary only: an edit
   * corrects what they were already told to read.
   */
  async recordSummary(reservationId: string, input: DoctorSummary): Promise<string> {
    const reservation = await this.repository.findBookedReservation(reservationId);
    if (reservation === undefined) {
      throw new ClinicError(`No booked reservation has the id ${reservationId}.`, 404);
    }
    if (reservation.reservationTime > this.clock.now()) {
      throw new ClinicError(summaryTooEarlyMessage, 409);
    }
    const summary = {
      condition: requireText(input.condition, 'The condition is required.'),
      summary: requireText(input.summary, 'The suggestion (summary) is required.'),
      returnVisit: requireText(input.returnVisit, 'The recommended return visit time is required.'),
    };
    const stored: NewComplaintImage[] = [];
    try {
      for (const [index, image] of input.images.entries()) {
        const accepted = await this.uploads.acceptImage(image.dataUrl).catch((error: unknown) => {
          const reason = error instanceof Error ? error.message : String(error);
          // The upload's own status (413 too large, 415 not an image) reaches the console.
          const status = error instanceof DomainError ? error.status : 400;
          throw new ClinicError(`${image.fileName}: ${reason}`, status, {
            [`images.${String(index)}`]: [reason],
          });
        });
        const key = `${complaintImagePrefix}${reservationId}/${randomUUID()}.${accepted.extension}`;
        await this.blobs.put(key, accepted.bytes, accepted.contentType);
        stored.push({
          blobKey: key,
          contentType: accepted.contentType,
          fileName: `doctor-image-${String(stored.length + 1)}.${accepted.extension}`,
        });
      }
      const { id, created, replacedKeys } = await this.repository.transaction((repository) =>
        repository.upsertComplaint(reservationId, summary, stored, this.clock.now()),
      );
      await Promise.all(replacedKeys.map((key) => this.blobs.delete(key)));
      if (created) await this.notices?.summaryReady(reservationId);
      return id;
    } catch (error) {
      await Promise.allSettled(stored.map((image) => this.blobs.delete(image.blobKey)));
      throw error;
    }
  }

  private async doctorNamed(name: string) {
    const doctor = await this.repository.findDoctorByName(name.trim());
    if (doctor === undefined) throw new ClinicError(`No doctor is named ${name}.`);
    return doctor;
  }
}

const noQuestion = (id: string) => new ClinicError(`No current question has the id ${id}.`, 404);

function requireText(value: string, message: string): string {
  const trimmed = value.trim();
  if (trimmed === '') throw new ClinicError(message);
  return trimmed;
}

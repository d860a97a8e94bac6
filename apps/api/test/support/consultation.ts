import type { Database } from '#api/db/client';
import type { BlobStore } from '#api/adapters/blob-store/blob-store';
import type { Clock } from '#api/clock';
import { dataUrlOf, makePng } from '../fixtures/upload-test-files';
import { UploadAcceptance } from '#api/modules/uploads/upload-acceptance';
import { ClinicRepository } from '#api/modules/virtual-consultation/clinic.repository';
import { ClinicService } from '#api/modules/virtual-consultation/clinic.service';

/** The clinic side over a test database, as the clinic command builds it. */
export function clinicFor(db: Database, blobs: BlobStore, clock: Clock): ClinicService {
  return new ClinicService(new ClinicRepository(db), blobs, new UploadAcceptance(), clock);
}

export interface ClinicSetup {
  doctorName: string;
  doctorId: string;
  questionIds: string[];
}

let doctorCounter = 0;

/**
 * A doctor available around the clock every day in UTC (every half hour is a slot) and a form
 * of two questions, so tests can pick any future half hour.
 */
export async function setUpClinic(clinic: ClinicService): Promise<ClinicSetup> {
  doctorCounter++;
  const doctorName = `Dr. Test ${String(doctorCounter)} ${String(Date.now())}`;
  const doctorId = await clinic.addDoctor(doctorName, 'UTC');
  for (let weekday = 1; weekday <= 7; weekday++) {
    await clinic.addAvailability(doctorName, { weekday, startMinute: 0, endMinute: 1440 });
  }
  const existing = await clinic.questions();
  const questionIds =
    existing.length > 0
      ? existing.map((question) => question.id)
      : [
          await clinic.addQuestion('What brings you to the consultation?'),
          await clinic.addQuestion('Any medicines or allergies?'),
        ];
  return { doctorName, doctorId, questionIds };
}

const halfHour = 30 * 60 * 1000;

/** The start of the half hour `halfHours` half hours after the next one from `now`. */
export function slotAfter(now: Date, halfHours: number): Date {
  return new Date((Math.floor(now.getTime() / halfHour) + 1 + halfHours) * halfHour);
}

/** A consultation of the member with `setup`'s doctor at `time`, and the doctor's summary with
 *  one image. */
export async function summarizedConsultation(
  clinic: ClinicService,
  setup: ClinicSetup,
  email: string,
  time: Date,
): Promise<void> {
  const past = await clinic.addReservation({
    email,
    doctorName: setup.doctorName,
    time,
    timeZone: 'UTC',
  });
  await clinic.recordSummary(past, {
    condition: 'Mild gingivitis',
    summary: 'Floss daily.',
    returnVisit: 'In 6 months',
    images: [{ dataUrl: dataUrlOf(await makePng(20, 20), 'image/png'), fileName: 'gums.png' }],
  });
}

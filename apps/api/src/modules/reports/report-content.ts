import {
  coloursByFirstAppearance,
  dentalAiDisclaimer,
  dentalAiTypeLabels,
  lookedFor,
  markedAreasSentence,
  nextStepsWhenMarked,
  nothingMarked,
  readAsSentence,
  reportKindNames,
  toothName,
} from '@dental/contracts';
import type { TaggedPdf } from '#api/lib/accessible-pdf';
import type { MemberRecord } from '../data-export/data-export.repository';

/** One payment in the summary report (docs/decisions/reports.md). */
export interface ReportPayment {
  number: string;
  description: string;
  amount_cents: number;
  currency: string;
  paid_at: Date;
  card_last4: string | null;
}

/** The member's payments paid from `from` to `to`, both included. */
export type ReportPayments = (memberId: string, from: Date, to: Date) => Promise<ReportPayment[]>;

/** A report's days, both included, as UTC moments and as written. */
export interface ReportPeriod {
  from: string;
  to: string;
  start: Date;
  end: Date;
}

export function reportPeriod(from: string, to: string): ReportPeriod {
  return {
    from,
    to,
    start: new Date(`${from}T00:00:00.000Z`),
    end: new Date(`${to}T23:59:59.999Z`),
  };
}

/** A stored image's bytes as JPEG or PNG, the two kinds a PDF draws. */
export type LoadImage = (key: string, contentType: string) => Promise<Buffer>;

/** 'YYYY-MM-DD HH:mm' in a time zone (Swedish dates are written the ISO way). */
const dateTime = (at: Date, timeZone = 'UTC') =>
  new Intl.DateTimeFormat('sv-SE', { timeZone, dateStyle: 'short', timeStyle: 'short' }).format(at);
const day = (at: Date) => at.toISOString().slice(0, 10);

/** What of the record falls in the period, oldest first. */
function inPeriod(record: MemberRecord, period: ReportPeriod) {
  const within = (at: Date) => at >= period.start && at <= period.end;
  const withinDays = (date: string) => date >= period.from && date <= period.to;
  return {
    consultations: record.consultations.filter(
      ({ reservation }) => reservation.status === 'booked' && within(reservation.reservationTime),
    ),
    appointments: record.appointments.filter((row) => within(row.appointmentDate)),
    dentalAiResults: record.dentalAiResults.filter((row) => within(row.createdAt)),
    reviews: record.reviews.filter((row) => within(row.createdAt)),
    photos: record.photos.filter((row) => withinDays(row.shootDate)),
    records: record.records.filter(({ record: row }) => withinDays(row.recordDate)),
  };
}

function opening(pdf: TaggedPdf, title: string, record: MemberRecord, period: ReportPeriod) {
  pdf
    .heading(title, 1)
    .paragraph(`${record.member.username}, from ${period.from} to ${period.to}.`);
}

/** Images the treatment history draws: its progress counts them. */
export function treatmentHistoryImages(record: MemberRecord, period: ReportPeriod): number {
  const shown = inPeriod(record, period);
  return (
    shown.consultations.reduce((sum, { summaryImages }) => sum + summaryImages.length, 0) +
    shown.dentalAiResults.length +
    shown.photos.length
  );
}

/**
 * The treatment history report (docs/product/reports.md): consultations with the doctor's
 * summaries and images, appointments, Dental AI results in plain words with their boxes,
 * dentists' reviews, photos and X-rays by tooth, and the medical records; `drawn` is called after
 * each image.
 */
export async function writeTreatmentHistory(
  pdf: TaggedPdf,
  record: MemberRecord,
  period: ReportPeriod,
  loadImage: LoadImage,
  drawn: () => Promise<void>,
): Promise<void> {
  const shown = inPeriod(record, period);
  // After each image the pages written so far leave memory before the next image is read.
  const next = async () => {
    await pdf.drained();
    await drawn();
  };
  opening(pdf, reportKindNames.treatment_history, record, period);

  pdf.heading('Consultations', 2);
  if (shown.consultations.length === 0) pdf.paragraph('No consultations in this period.');
  for (const { reservation, doctor, summary, summaryImages } of shown.consultations) {
    pdf.heading(
      `${dateTime(reservation.reservationTime, reservation.timeZone)} with ${doctor.name}`,
      3,
    );
    if (summary === undefined) {
      pdf.paragraph('The doctor has not written a summary.');
      continue;
    }
    pdf
      .paragraph(`Condition: ${summary.condition}`)
      .paragraph(`Summary: ${summary.summary}`)
      .paragraph(`Return visit: ${summary.returnVisit}`);
    for (const image of summaryImages) {
      pdf.figure(await loadImage(image.blobKey, image.contentType), {
        alt: `Image ${String(image.position + 1)} of ${doctor.name}’s summary: ${image.fileName}`,
      });
      await next();
    }
  }

  pdf.heading('Appointments', 2);
  if (shown.appointments.length === 0) pdf.paragraph('No appointments in this period.');
  pdf.list(
    shown.appointments.map(
      (row) =>
        `${dateTime(row.appointmentDate, row.timeZone)}${row.note === '' ? '' : `: ${row.note}`}`,
    ),
  );

  pdf.heading('Dental AI results', 2);
  if (shown.dentalAiResults.length === 0) pdf.paragraph('No Dental AI results in this period.');
  for (const result of shown.dentalAiResults) {
    const colours = coloursByFirstAppearance(result.detections.map((box) => box.label));
    const marked = result.detections.length;
    pdf.figure(await loadImage(result.blobKey, result.contentType), {
      title: `${dentalAiTypeLabels[result.dentalAi].resultTitle} of ${dateTime(result.createdAt)}`,
      alt: `The image Dental AI looked at, ${marked === 0 ? 'with nothing marked' : `with ${String(marked)} marked ${marked === 1 ? 'area' : 'areas'}: ${[...colours].map(([label, colour]) => `${label} in ${colour}`).join(', ')}`}.`,
      boxes: result.detections.map((box) => ({
        box: [box.xmin, box.ymin, box.xmax, box.ymax],
        colour: colours.get(box.label) ?? 'red',
      })),
    });
    await next();
    pdf
      .paragraph(lookedFor[result.dentalAi])
      .paragraph(readAsSentence(result.imageKind, result.imageKindSource));
    if (marked === 0) pdf.paragraph(nothingMarked);
    else pdf.paragraph(markedAreasSentence(marked)).paragraph(nextStepsWhenMarked);
    pdf.paragraph(dentalAiDisclaimer);
  }

  pdf.heading('Dentists’ reviews', 2);
  if (shown.reviews.length === 0) pdf.paragraph('No dentist’s reviews in this period.');
  for (const review of shown.reviews) {
    pdf
      .heading(`Review asked on ${dateTime(review.createdAt)}`, 3)
      .paragraph(`Your question: ${review.question}`);
    pdf.paragraph(
      review.report === null
        ? 'The dentist has not answered yet.'
        : `${review.reviewerName ?? 'The dentist'} answered${review.answeredAt === null ? '' : ` on ${dateTime(review.answeredAt)}`}: ${review.report}`,
    );
  }

  pdf.heading('Photos and X-rays by tooth', 2);
  if (shown.photos.length === 0) pdf.paragraph('No photos or X-rays in this period.');
  const teeth = [...new Set(shown.photos.flatMap((photo) => photo.teeth))].sort((a, b) => a - b);
  pdf.list(
    teeth.map((tooth) => {
      const dates = shown.photos
        .filter((photo) => photo.teeth.includes(tooth))
        .map((photo) => `${photo.photoType} of ${photo.shootDate}`);
      return `Tooth ${String(tooth)} (${toothName(tooth)}): ${dates.join(', ')}`;
    }),
  );
  // Tagged photos first, by their first tooth, then the untagged ones, each drawn once.
  const byTooth = [...shown.photos].sort(
    (a, b) => (a.teeth[0] ?? 99) - (b.teeth[0] ?? 99) || a.shootDate.localeCompare(b.shootDate),
  );
  for (const photo of byTooth) {
    const tagged =
      photo.teeth.length === 0
        ? 'no tooth tagged'
        : `teeth ${photo.teeth.map((tooth) => `${String(tooth)} (${toothName(tooth)})`).join(', ')}`;
    pdf.figure(await loadImage(photo.blobKey, photo.contentType), {
      title: `${photo.photoType} of ${photo.shootDate}, ${tagged}`,
      alt: `${photo.photoType} taken on ${photo.shootDate}${photo.note === '' ? '' : `: ${photo.note}`}`,
    });
    await next();
  }

  pdf.heading('Medical records', 2);
  if (shown.records.length === 0) pdf.paragraph('No medical records in this period.');
  pdf.list(
    shown.records.map(({ record: row, files }) => {
      const attached = files.length === 1 ? '1 file' : `${String(files.length)} files`;
      return `${row.recordDate}: ${row.title} (${attached})`;
    }),
  );
}

const dated = (label: string, dates: readonly string[]) =>
  dates.length === 0
    ? `${label}: none`
    : `${label}: ${String(dates.length)} (${[...new Set(dates)].join(', ')})`;

/**
 * The receipts and history summary report (docs/product/reports.md): every payment of the period,
 * then a one-page summary of the member's history in counts and dates.
 */
export function writeSummary(
  pdf: TaggedPdf,
  record: MemberRecord,
  period: ReportPeriod,
  payments: readonly ReportPayment[],
  locale: string,
): void {
  const shown = inPeriod(record, period);
  opening(pdf, reportKindNames.summary, record, period);

  pdf.heading('Payments', 2);
  if (payments.length === 0) pdf.paragraph('No payments in this period.');
  const money = (cents: number, currency: string) =>
    new Intl.NumberFormat(locale, { style: 'currency', currency }).format(cents / 100);
  pdf.list(
    payments.map(
      (payment) =>
        `${day(payment.paid_at)}, receipt ${payment.number}: ${payment.description}, ${money(payment.amount_cents, payment.currency)} (${payment.currency}), ${payment.card_last4 === null ? 'card not recorded' : `card ending ${payment.card_last4}`}`,
    ),
  );
  const totals = new Map<string, number>();
  for (const payment of payments) {
    totals.set(payment.currency, (totals.get(payment.currency) ?? 0) + payment.amount_cents);
  }
  if (totals.size > 0) {
    pdf.paragraph(
      `Total paid: ${[...totals].map(([currency, cents]) => money(cents, currency)).join(', ')}.`,
    );
  }

  pdf.heading('Your history in this period', 2);
  pdf.list([
    dated(
      'Consultations',
      shown.consultations.map(({ reservation }) => day(reservation.reservationTime)),
    ),
    dated(
      'Appointments',
      shown.appointments.map((row) => day(row.appointmentDate)),
    ),
    dated(
      'Dental AI results',
      shown.dentalAiResults.map((row) => day(row.createdAt)),
    ),
    dated(
      'Dentist’s reviews',
      shown.reviews.map((row) => day(row.createdAt)),
    ),
    dated(
      'Photos and X-rays',
      shown.photos.map((row) => row.shootDate),
    ),
    dated(
      'Medical records',
      shown.records.map(({ record: row }) => row.recordDate),
    ),
  ]);
}

import type { Mailer } from '#api/adapters/mailer';
import { escapeHtml } from '#api/lib/html';
import type { ErrorLogger } from '#api/logger';
import type { SummaryNotices } from './clinic.service';
import type { ConsultationSettings } from './virtual-consultation.service';

export const summaryReadySubject = 'A note from your dentist is ready';

/**
 * E-mails the patient that a doctor's summary is ready to read in the app: no doctor, time,
 * condition or advice travels by e-mail, only where to read it. A failure is logged; the
 * summary stands and the patient finds it in their reservation record.
 */
export class SummaryReadyMail implements SummaryNotices {
  constructor(
    private readonly patientEmailOf: (reservationId: string) => Promise<string | undefined>,
    private readonly mailer: Mailer,
    private readonly settings: ConsultationSettings,
    private readonly log: ErrorLogger,
  ) {}

  async summaryReady(reservationId: string): Promise<void> {
    const { companyName, publicUrl } = this.settings;
    const link = `${publicUrl}/virtual-consultation/reservation-record`;
    const sentence = 'Your dentist has written a summary of your virtual consultation.';
    const text = [
      'Hello,',
      '',
      sentence,
      '',
      `Sign in to read it under Reservation Record: ${link}`,
      '',
      companyName,
    ].join('\n');
    const html = [
      '<p>Hello,</p>',
      `<p>${escapeHtml(sentence)}</p>`,
      `<p>Sign in to read it under <a href="${escapeHtml(link)}">Reservation Record</a>.</p>`,
      `<p>${escapeHtml(companyName)}</p>`,
    ].join('\n');
    try {
      const email = await this.patientEmailOf(reservationId);
      if (email === undefined) return;
      await this.mailer.send({ to: email, subject: summaryReadySubject, text, html });
    } catch (error) {
      this.log.error({ err: error }, 'the summary-ready e-mail could not be sent');
    }
  }
}

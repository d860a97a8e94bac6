import type {
  AuditAction,
  AuditResourceType,
  ClinicConsultation,
  ClinicSummary,
  ConsultationPeriod,
  DentalAiResult,
  PageRequest,
  SummaryRequest,
} from '@dental/contracts';
import type { Clock } from '#api/clock';
import { NotFound } from '#api/domain-errors';
import type { Page } from '#api/lib/pagination';
import { pageOf } from '#api/lib/pagination';
import type { LinkedFile } from '#api/lib/signed-links';
import type { ClinicConsultationRepository, ConsultationRow } from './consultations.repository';

export const consultationNotFoundMessage = 'This consultation was not found.';

/** Whose consultations a staff member reads: a practitioner's own doctor, or (null) every
 *  doctor's, for an admin. */
export interface ConsultationScope {
  staffId: string;
  practitionerId: string | null;
}

/** An audit row in a patient's chain (AuditService). */
export interface PatientAuditTrail {
  record(event: {
    memberId: string;
    actor: string;
    action: AuditAction;
    resourceType: AuditResourceType;
    resourceId: string;
    result: 'success';
  }): Promise<void>;
}

/** ClinicService's summary recording: images through the upload acceptance path, blobs written
 *  before rows, the patient told of a first summary. */
export interface SummaryRecorder {
  recordSummary(
    reservationId: string,
    input: {
      condition: string;
      summary: string;
      returnVisit: string;
      images: readonly { dataUrl: string; fileName: string }[];
    },
  ): Promise<string>;
}

/** The patient's Dental AI results among the ids, as the Dental AI module answers them. */
export interface PatientDentalAi {
  getMany(userId: string, ids: readonly string[]): Promise<DentalAiResult[]>;
}

/** The care team's file links (SharedFiles): each image link is replaced by one scoped to the
 *  staff member, checked on every open against what the patient attached. */
export interface StaffFileLinks {
  scope(
    staffId: string,
    items: { photos: []; records: []; dentalAi: DentalAiResult[] },
  ): { dentalAi: DentalAiResult[] };
}

/**
 * The consultations booked with a practitioner, as the clinic console shows them: patient,
 * answers, the Dental AI results the patient attached, and summary. Each one read is a staff read
 * of patient data, written to that patient's audit trail with the staff member as its actor.
 */
export class ClinicConsultationService {
  constructor(
    private readonly repository: ClinicConsultationRepository,
    private readonly summaries: SummaryRecorder,
    private readonly audit: PatientAuditTrail,
    private readonly links: { sign(file: LinkedFile): string },
    private readonly clock: Clock,
    private readonly dentalAi: PatientDentalAi,
    private readonly staffFiles: StaffFileLinks,
  ) {}

  async list(
    scope: ConsultationScope,
    period: ConsultationPeriod,
    asked: PageRequest,
  ): Promise<Page<ClinicConsultation>> {
    const page = pageOf(
      await this.repository.page(scope.practitionerId, period, this.clock.now(), asked),
      asked,
    );
    const items: ClinicConsultation[] = [];
    // One row per consultation shown, and one per Dental AI result it carries, in order, each
    // in its patient's chain.
    for (const row of page.items) {
      await this.audit.record({
        memberId: row.patientId,
        actor: scope.staffId,
        action: 'read',
        resourceType: 'consultation_answers',
        resourceId: row.id,
        result: 'success',
      });
      const dentalAi = await this.dentalAi.getMany(row.patientId, row.dentalAiIds);
      for (const result of dentalAi) {
        await this.audit.record({
          memberId: row.patientId,
          actor: scope.staffId,
          action: 'read',
          resourceType: 'dental_ai_result',
          resourceId: result.id,
          result: 'success',
        });
      }
      items.push(
        this.toConsultation(
          row,
          this.staffFiles.scope(scope.staffId, {
            photos: [],
            records: [],
            dentalAi,
          }).dentalAi,
        ),
      );
    }
    return { ...page, items };
  }

  /** Writes (or rewrites) the summary of a consultation in scope whose time has come. */
  async writeSummary(
    scope: ConsultationScope,
    reservationId: string,
    request: SummaryRequest,
  ): Promise<ClinicSummary> {
    const target = await this.repository.summaryTarget(scope.practitionerId, reservationId);
    if (target === undefined) throw new NotFound(consultationNotFoundMessage);
    await this.summaries.recordSummary(reservationId, {
      condition: request.doctor_condition,
      summary: request.doctor_summary,
      returnVisit: request.doctor_return,
      images: (request.images ?? []).map((dataUrl, index) => ({
        dataUrl,
        fileName: `image ${String(index + 1)}`,
      })),
    });
    // Named by the consultation, as the staff reads are, so Account activity can give its day.
    await this.audit.record({
      memberId: target.patientId,
      actor: scope.staffId,
      action: target.hasSummary ? 'change' : 'create',
      resourceType: 'consultation_summary',
      resourceId: reservationId,
      result: 'success',
    });
    const written = (await this.repository.one(reservationId))?.summary;
    if (written === undefined || written === null) throw new NotFound(consultationNotFoundMessage);
    return this.toSummary(written);
  }

  private toConsultation(row: ConsultationRow, dentalAi: DentalAiResult[]): ClinicConsultation {
    return {
      id: row.id,
      reservation_time: row.reservationTime.toISOString(),
      timezone: row.timeZone,
      practitioner: { id: row.practitionerId, name: row.practitionerName },
      patient: { id: row.patientId, username: row.patientUsername },
      answers: row.answers,
      dental_ai: dentalAi,
      summary: row.summary === null ? null : this.toSummary(row.summary),
    };
  }

  private toSummary(summary: NonNullable<ConsultationRow['summary']>): ClinicSummary {
    return {
      doctor_condition: summary.condition,
      doctor_summary: summary.summary,
      doctor_return: summary.returnVisit,
      images: summary.images.map((image) =>
        this.links.sign({
          key: image.blobKey,
          contentType: image.contentType,
          disposition: 'inline',
          fileName: image.fileName,
        }),
      ),
      updated_at: summary.updatedAt.toISOString(),
    };
  }
}

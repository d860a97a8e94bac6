import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import sharp from 'sharp';
import {
  planNames,
  plans,
  reportAllowances,
  reportFailedMessage,
  reportKindNames,
  reportLimitMessage,
  reportLinkMinutes,
  reportNotFoundMessage,
  reportReadyNoticeDays,
  type ReadyReports,
  type Report,
  type ReportKind,
  type ReportList,
  type ReportRemaining,
  type ReportRequest,
  type ReportStarted,
} from '@dental/contracts';
import type { BlobStore } from '#api/adapters/blob-store/blob-store';
import type { Mailer } from '#api/adapters/mailer';
import type { Clock } from '#api/clock';
import type { ReportRow } from '#api/db/schema';
import { NotFound } from '#api/domain-errors';
import type { JobQueue, QueueRules } from '#api/jobs/job-queue';
import type { PushQueue } from '#api/jobs/push-outbox';
import { AccessiblePdfFile, paperSizeFor } from '#api/lib/accessible-pdf';
import { htmlParagraphs } from '#api/lib/html';
import type { SignedLinks } from '#api/lib/signed-links';
import type { ErrorLogger } from '#api/logger';
import type { MemberRecord } from '../data-export/data-export.repository';
import { userFilesPrefix } from '../files/file-storage';
import type { PlanLimitsService } from '../membership/plan-limits.service';
import {
  reportPeriod,
  treatmentHistoryImages,
  writeSummary,
  writeTreatmentHistory,
  type LoadImage,
  type ReportPayments,
} from './report-content';
import type { ReportRepository } from './reports.repository';

export const reportQueue = 'reports';

export const reportQueueRules: QueueRules = {
  // A failed report gives its use back and the member asks again: no retry generates it twice.
  retryLimit: 0,
  retryDelaySeconds: 30,
  expireInSeconds: 15 * 60,
  batchSize: 1,
};

/** A report still queued or running this long after it was asked for lost its job (the process
 *  died): it fails and gives its use back. Longer than the queue's expiry. */
export const reportAbandonedAfterMs = 30 * 60_000;

/** Where a report's PDF is stored, under the member's files. */
const reportKey = (userId: string, id: string) => `${userFilesPrefix}${userId}/reports/${id}.pdf`;
const reportKeyPattern = new RegExp(`^${userFilesPrefix}[^/]+/reports/[^/]+\\.pdf$`);

/** Progress is written at most this often (in steps of the whole), not once per image. */
const progressSteps = 20;

export interface ReportJob {
  reportId: string;
}

export interface ReportSettings {
  publicUrl: string;
  companyName: string;
  /** Where a report's PDF is written before it is stored (under the data folder: health data
   *  never goes to the system's temporary folder). */
  buildDir: string;
}

/** The reads a report is written from: the member's record, and the payments of a period. */
export interface ReportSources {
  record: (memberId: string) => Promise<MemberRecord | undefined>;
  payments: ReportPayments;
}

/** The first day of the 12 months that end on `to` (YYYY-MM-DD): 2026-11-29 → 2025-11-30. */
export function twelveMonthsTo(to: string): string {
  const start = new Date(`${to}T00:00:00.000Z`);
  start.setUTCFullYear(start.getUTCFullYear() - 1);
  start.setUTCDate(start.getUTCDate() + 1);
  return start.toISOString().slice(0, 10);
}

/** The first language tag of an Accept-Language header that Intl knows, else en-US. */
export function requestLocale(acceptLanguage: string | undefined): string {
  const first = acceptLanguage?.split(',')[0]?.split(';')[0]?.trim();
  if (first === undefined || first === '' || first === '*') return 'en-US';
  try {
    return new Intl.Locale(first).toString();
  } catch {
    return 'en-US';
  }
}

/**
 * Reports (docs/decisions/reports.md): a member asks for a PDF of a period; a use of the plan's
 * calendar-year allowance is reserved at once, a job on the queue writes the PDF and e-mails the
 * member, and a failed job gives the use back.
 */
export class ReportService {
  constructor(
    private readonly repository: ReportRepository,
    private readonly sources: ReportSources,
    private readonly planLimits: PlanLimitsService,
    private readonly blobs: BlobStore,
    private readonly links: SignedLinks,
    private readonly jobs: JobQueue | undefined,
    private readonly mailer: Mailer,
    /** A ready report's pushes are queued after they are written. */
    private readonly push: PushQueue,
    private readonly clock: Clock,
    private readonly settings: ReportSettings,
    private readonly log: ErrorLogger,
  ) {}

  /** Reserves a use (403 when none is left) and queues the report. */
  async request(userId: string, request: ReportRequest, locale: string): Promise<ReportStarted> {
    const now = this.clock.now();
    const to = request.to ?? now.toISOString().slice(0, 10);
    const from = request.from ?? twelveMonthsTo(to);
    const row = await this.repository.transaction(async (reports, tx) => {
      await this.planLimits.reserveCalendarYearUse(
        reportAllowances[request.kind],
        tx,
        userId,
        now,
        (since) => reports.countUses(userId, request.kind, since),
        (plan) => {
          const next = planNames[planNames.indexOf(plan) + 1];
          return reportLimitMessage(
            request.kind,
            plans[plan],
            now.getUTCFullYear(),
            next === undefined ? undefined : plans[next],
          );
        },
      );
      return reports.create({
        userId,
        kind: request.kind,
        periodFrom: from,
        periodTo: to,
        locale,
        createdAt: now,
      });
    });
    await this.jobs?.send<ReportJob>(reportQueue, [
      { id: row.id, data: { reportId: row.id }, startAfter: now },
    ]);
    return { id: row.id };
  }

  async get(userId: string, id: string): Promise<Report> {
    const row = await this.repository.find(userId, id);
    if (row === undefined) throw new NotFound(reportNotFoundMessage);
    return this.toAnswer(row);
  }

  async list(userId: string): Promise<ReportList> {
    const [rows, remaining] = await Promise.all([
      this.repository.list(userId),
      this.remaining(userId),
    ]);
    return { results: rows.map((row) => this.toAnswer(row)), remaining };
  }

  /** The member's reports among `ids` that are done and not deleted (a share link's). */
  async getManyDone(userId: string, ids: readonly string[]): Promise<Report[]> {
    const rows = await this.repository.findManyDone(userId, ids);
    return rows.map((row) => this.toAnswer(row));
  }

  /** Reports finished in the last days that the member has not downloaded: Home's notice. */
  async ready(userId: string): Promise<ReadyReports> {
    const since = new Date(this.clock.now().getTime() - reportReadyNoticeDays * 24 * 60 * 60_000);
    const rows = await this.repository.readySince(userId, since);
    return { results: rows.map(({ id, kind }) => ({ id, kind })) };
  }

  /** The member downloaded a file through their own link: a report's ends Home's notice. */
  async downloaded(key: string): Promise<void> {
    // Photos and records pass here too: only a report's key is looked up.
    if (!reportKeyPattern.test(key)) return;
    await this.repository.markDownloaded(key, this.clock.now());
  }

  /** Reports of each kind the plan still allows this calendar year. */
  async remaining(userId: string): Promise<ReportRemaining> {
    const now = this.clock.now();
    const left = async (kind: ReportKind) => {
      const usage = await this.planLimits.calendarYearUsage(
        reportAllowances[kind],
        this.repository.db,
        userId,
        now,
        (since) => this.repository.countUses(userId, kind, since),
      );
      return Math.max(0, usage.allowed - usage.used);
    };
    return { treatment_history: await left('treatment_history'), summary: await left('summary') };
  }

  /** Deletes the report and its PDF; its use stays spent. */
  async delete(userId: string, id: string): Promise<void> {
    const row = await this.repository.markDeleted(userId, id, this.clock.now());
    if (row === undefined) throw new NotFound(reportNotFoundMessage);
    if (row.blobKey !== null) await this.blobs.delete(row.blobKey);
  }

  /** The job: writes the PDF, stores it and tells the member; a failure gives the use back. */
  async run(reportId: string): Promise<void> {
    const row = await this.repository.claim(reportId);
    // Taken by another worker, deleted, or failed as abandoned: nothing to do.
    if (row === undefined) return;
    try {
      await this.generate(row);
    } catch (error) {
      this.log.error({ err: error, reportId }, 'a report could not be generated');
      await this.repository.fail(reportId, this.clock.now());
    }
  }

  /** Runs every few minutes: reports whose job was lost fail and give their use back. */
  async failAbandoned(): Promise<number> {
    const now = this.clock.now();
    return this.repository.failAbandoned(new Date(now.getTime() - reportAbandonedAfterMs), now);
  }

  private async generate(row: ReportRow): Promise<void> {
    const record = await this.sources.record(row.userId);
    // The account was deactivated since: nothing is written for it.
    if (record === undefined) throw new Error('The member’s account is no longer active');
    // Written to a file page by page, so a report of many photos holds about one page's images.
    await mkdir(this.settings.buildDir, { recursive: true, mode: 0o700 });
    const file = path.join(this.settings.buildDir, `${row.id}.pdf`);
    try {
      await this.writeAndStore(row, record, file);
    } finally {
      await rm(file, { force: true });
    }
  }

  private async writeAndStore(row: ReportRow, record: MemberRecord, file: string): Promise<void> {
    const period = reportPeriod(row.periodFrom, row.periodTo);
    const pdf = new AccessiblePdfFile(
      {
        title: `${reportKindNames[row.kind]}, ${period.from} to ${period.to}`,
        lang: 'en',
        paper: paperSizeFor(row.locale),
      },
      file,
    );
    if (row.kind === 'treatment_history') {
      const images = treatmentHistoryImages(record, period);
      let done = 0;
      let reported = 0;
      await writeTreatmentHistory(pdf, record, period, this.loadImage, async () => {
        done += 1;
        const step = Math.floor((done / (images + 1)) * progressSteps);
        if (step <= reported) return;
        reported = step;
        await this.repository.progress(row.id, step / progressSteps);
      });
    } else {
      const payments = await this.sources.payments(row.userId, period.start, period.end);
      await this.repository.progress(row.id, 0.5);
      writeSummary(pdf, record, period, payments, row.locale);
    }
    const sizeBytes = await pdf.finish();
    const key = reportKey(row.userId, row.id);
    await this.blobs.putFile(key, file, 'application/pdf');
    const done = await this.repository.finish(row.id, {
      blobKey: key,
      sizeBytes,
      finishedAt: this.clock.now(),
    });
    if (done === undefined) {
      // Deleted while it was written: its use stays spent, its PDF goes.
      await this.blobs.delete(key);
      return;
    }
    await this.push.afterCommit();
    await this.sendReady(record.member.email, record.member.username);
  }

  /** The stored copy as JPEG or PNG; other kinds (WebP) are converted to PNG. */
  private readonly loadImage: LoadImage = async (key, contentType) => {
    const blob = await this.blobs.get(key);
    if (blob === null) throw new Error(`A stored image is missing: ${key}`);
    const bytes = await buffer(blob.stream);
    return contentType === 'image/jpeg' || contentType === 'image/png'
      ? bytes
      : sharp(bytes).png().toBuffer();
  };

  /** Says only that a report is ready, and where: no health detail leaves in an e-mail. */
  private async sendReady(to: string, username: string): Promise<void> {
    const { companyName, publicUrl } = this.settings;
    const lines = [
      `Hello ${username},`,
      'The report you asked for is ready. Sign in and open Reports to download it.',
      `${publicUrl}/reports`,
      companyName,
    ];
    try {
      await this.mailer.send({
        to,
        subject: `Your ${companyName} report is ready`,
        text: lines.join('\n\n'),
        html: htmlParagraphs(lines),
      });
    } catch (error) {
      // The report is on the Reports screen either way.
      this.log.error({ err: error }, 'the report e-mail could not be sent');
    }
  }

  private toAnswer(row: ReportRow): Report {
    const expiresAt = new Date(this.clock.now().getTime() + reportLinkMinutes * 60_000);
    return {
      id: row.id,
      kind: row.kind,
      status: row.status,
      progress: row.progress,
      download_url:
        row.status === 'done' && row.blobKey !== null
          ? this.links.sign(
              {
                key: row.blobKey,
                contentType: 'application/pdf',
                disposition: 'attachment',
                fileName: `${row.kind === 'summary' ? 'summary' : 'treatment-history'}-${row.periodFrom}-to-${row.periodTo}.pdf`,
              },
              expiresAt,
            )
          : null,
      from: row.periodFrom,
      to: row.periodTo,
      created_at: row.createdAt.toISOString(),
      error: row.status === 'failed' ? reportFailedMessage : null,
    };
  }
}

import { z } from 'zod';
import { dateInRange } from './dates';
import type { Plan } from './plans';

/** Reports a member generates as PDFs (docs/product/reports.md), counted against the plan. */
export const reportPaths = {
  root: '/api/reports/',
  /** Reports finished lately and not downloaded yet, for Home's notice. */
  ready: '/api/reports/ready/',
  one: (id: string) => `/api/reports/${encodeURIComponent(id)}/`,
} as const;

export const reportKinds = ['treatment_history', 'summary'] as const;
export const reportKind = z.enum(reportKinds, 'Choose treatment_history or summary.');
export type ReportKind = z.infer<typeof reportKind>;

/** The plan's allowance each kind counts against (packages/contracts/src/plans.ts). */
export const reportAllowances: Record<
  ReportKind,
  'treatmentHistoryReportsPerYear' | 'summaryReportsPerYear'
> = {
  treatment_history: 'treatmentHistoryReportsPerYear',
  summary: 'summaryReportsPerYear',
};

/** How each kind is named on the screen, in the PDF's title and in a refusal, as the plan table
 *  names it (docs/product/membership.md#plans). */
export const reportKindNames: Record<ReportKind, string> = {
  treatment_history: 'Treatment history report',
  summary: 'Receipts and history summary report',
};

export const reportStatuses = ['queued', 'running', 'done', 'failed'] as const;
export const reportStatus = z.enum(reportStatuses);
export type ReportStatus = z.infer<typeof reportStatus>;

/** How long a finished report's download link works; a new link is signed on every read. */
export const reportLinkMinutes = 15;

/** Home says a report is ready for this many days after it was finished, until the member
 *  downloads it (docs/decisions/reports.md). */
export const reportReadyNoticeDays = 7;

export const reportNotFoundMessage = 'This report was not found.';
export const reportPeriodMessage = 'The period must start on or before the day it ends.';

const reportDate = dateInRange('Enter a date as YYYY-MM-DD.');

/** A report to generate; the period defaults to the 12 months up to today. */
export const reportRequest = z
  .object({
    kind: reportKind,
    from: reportDate.optional(),
    to: reportDate.optional(),
  })
  .refine(({ from, to }) => from === undefined || to === undefined || from <= to, {
    message: reportPeriodMessage,
    path: ['to'],
  });
export type ReportRequest = z.infer<typeof reportRequest>;

export const reportStarted = z.object({ id: z.uuid() });
export type ReportStarted = z.infer<typeof reportStarted>;

export const report = z.object({
  id: z.uuid(),
  kind: reportKind,
  status: reportStatus,
  /** 0 to 1, written by the job as it goes. */
  progress: z.number().min(0).max(1),
  /** A short-lived signed link to the PDF once it is done, else null. */
  download_url: z.string().nullable(),
  from: z.iso.date(),
  to: z.iso.date(),
  created_at: z.iso.datetime(),
  /** Why a failed report failed, in words for the member; null otherwise. */
  error: z.string().nullable(),
});
export type Report = z.infer<typeof report>;

export const reportRemaining = z.object({
  treatment_history: z.number().int().min(0),
  summary: z.number().int().min(0),
});
export type ReportRemaining = z.infer<typeof reportRemaining>;

export const reportList = z.object({
  results: z.array(report),
  /** Reports of each kind the plan still allows in this calendar year. */
  remaining: reportRemaining,
});
export type ReportList = z.infer<typeof reportList>;

/** A report Home tells the member is ready: its kind, nothing of what it holds. */
export const readyReport = report.pick({ id: true, kind: true });
export const readyReports = z.object({ results: z.array(readyReport) });
export type ReadyReports = z.infer<typeof readyReports>;

/** What a failed report says; the details stay in the server's log. */
export const reportFailedMessage =
  'The report could not be generated. Try again; it was not counted.';

/** The 403 detail when the plan's allowance of a kind is spent for the calendar year. */
export function reportLimitMessage(
  kind: ReportKind,
  plan: Plan,
  year: number,
  next: Plan | undefined,
): string {
  const allowance = reportAllowances[kind];
  const advice =
    next === undefined || next[allowance] <= plan[allowance]
      ? `It starts again on 1 January ${String(year + 1)}.`
      : `The ${next.name} plan raises it to ${String(next[allowance])} a year.`;
  return `You have used all ${String(plan[allowance])} ${reportKindNames[kind].toLowerCase()}s of your ${plan.name} plan for ${String(year)}. ${advice}`;
}

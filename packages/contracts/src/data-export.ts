import { z } from 'zod';

/** 'Download my data' (docs/decisions/data-export.md): the member's whole record as a zip with a
 *  FHIR R4 Bundle and every original file, built by a background job. */
export const dataExportPaths = {
  root: '/api/account/export/',
  one: (id: string) => `/api/account/export/${encodeURIComponent(id)}/`,
} as const;

export const dataExportStatuses = ['queued', 'running', 'done', 'failed'] as const;
export const dataExportStatus = z.enum(dataExportStatuses);
export type DataExportStatus = z.infer<typeof dataExportStatus>;

/** How long the download link of a finished archive works; the archive is deleted after. */
export const dataExportLinkDays = 7;

/** Where the Bundle sits inside the archive; the files sit beside it under `files/`. */
export const dataExportBundlePath = 'fhir/bundle.json';
/** The same record as a `transaction` Bundle of conditional creates, for a FHIR server's import. */
export const dataExportTransactionPath = 'fhir/transaction.json';

export const dataExportNotFoundMessage = 'This export was not found.';

export const dataExportStarted = z.object({
  id: z.uuid(),
  status: dataExportStatus,
});
export type DataExportStarted = z.infer<typeof dataExportStarted>;

export const dataExport = dataExportStarted.extend({
  progress: z.number().min(0).max(1),
  /** A signed link to the zip while it can be downloaded, else null. */
  download_url: z.string().nullable(),
  created_at: z.iso.datetime(),
  /** When the download link stops working; null until the archive is done. */
  expires_at: z.iso.datetime().nullable(),
  size_bytes: z.number().int().nullable(),
});
export type DataExport = z.infer<typeof dataExport>;

/** The member's exports whose links still work, and any still being built, newest first. */
export const dataExportList = z.array(dataExport);
export type DataExportList = z.infer<typeof dataExportList>;

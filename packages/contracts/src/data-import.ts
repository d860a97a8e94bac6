import { z } from 'zod';

/** 'Import a record' (docs/decisions/data-import.md): a zip made by 'Download my data', or its
 *  FHIR R4 Bundle alone, brought into the member's own record by a background job. */
export const dataImportPaths = {
  root: '/api/account/import/',
  one: (id: string) => `/api/account/import/${encodeURIComponent(id)}/`,
} as const;

export const dataImportStatuses = ['queued', 'running', 'done', 'failed'] as const;
export const dataImportStatus = z.enum(dataImportStatuses);
export type DataImportStatus = z.infer<typeof dataImportStatus>;

/** What an import brings in, each counted in `imported`. */
export const dataImportKinds = [
  'photos',
  'x_rays',
  'medical_records',
  'appointments',
  'dental_ai_results',
] as const;
export type DataImportKind = (typeof dataImportKinds)[number];

/** The limits of one import (docs/decisions/data-import.md#limits): the file sent, and the
 *  entries of its Bundle (a full export of a member at the plan's largest quota holds far fewer). */
export const dataImportLimits = {
  maxBytes: 64 * 1024 * 1024,
  maxEntries: 5000,
  /** Entries of a zip, files and folders together. */
  maxZipEntries: 10_000,
} as const;

export const dataImportTooLargeMessage = `This file is too large to import: at most ${String(dataImportLimits.maxBytes / 1024 / 1024)} MB.`;
export const dataImportTooManyEntriesMessage = `This record has too many entries to import at once: at most ${String(dataImportLimits.maxEntries)}.`;
export const dataImportUnreadableMessage =
  'This file is neither a zip made by ‘Download my data’ nor a FHIR Bundle in JSON.';
export const dataImportNoBundleMessage =
  'This zip holds no FHIR Bundle (fhir/bundle.json). Choose a zip made by ‘Download my data’.';
export const dataImportNotBundleMessage =
  'This JSON is not a FHIR Bundle (its resourceType is not ‘Bundle’).';
export const dataImportNoFileMessage = 'Choose a zip or JSON file to import.';
export const dataImportNotFoundMessage = 'This import was not found.';
export const dataImportHashMismatchMessage =
  'A file’s bytes do not match the hash its Bundle gives, so nothing was imported.';
export const dataImportFailedMessage =
  'The import could not be completed, and nothing was changed. Please try again.';

export const dataImportStarted = z.object({ id: z.uuid() });
export type DataImportStarted = z.infer<typeof dataImportStarted>;

/** One entry that was not imported, and why. */
export const dataImportError = z.object({
  /** The entry's fullUrl (or `Type/id`), null for the import as a whole. */
  entry: z.string().nullable(),
  resource_type: z.string().nullable(),
  detail: z.string(),
});
export type DataImportError = z.infer<typeof dataImportError>;

export const dataImportCounts = z.object(
  Object.fromEntries(dataImportKinds.map((kind) => [kind, z.number().int().min(0)])) as Record<
    DataImportKind,
    z.ZodNumber
  >,
);
export type DataImportCounts = z.infer<typeof dataImportCounts>;

export const dataImport = z.object({
  id: z.uuid(),
  status: dataImportStatus,
  progress: z.number().min(0).max(1),
  imported: dataImportCounts,
  /** Entries already in the record (same identifier or same file), left as they were. */
  skipped: z.number().int().min(0),
  errors: z.array(dataImportError),
  created_at: z.iso.datetime(),
  finished_at: z.iso.datetime().nullable(),
});
export type DataImport = z.infer<typeof dataImport>;

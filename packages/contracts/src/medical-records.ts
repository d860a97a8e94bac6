import { z } from 'zod';
import { pageQueryFields } from './pagination';
import { singleLineText } from './text';
import {
  calendarDate,
  requestCalendarDate,
  dataLink,
  dateRangeFields,
  dateRangeRule,
  listMaxRows,
  note,
} from './oral-photo';

/** Routes of the record calls (docs/product/records.md#record-calls). */
export const medicalRecordPaths = {
  list: '/api/medical-record/',
  /** How many records lie outside the dates (outsideRangeCount). */
  outsideRange: '/api/medical-record/outside-range/',
  one: (id: string) => `/api/medical-record/${id}/`,
  files: (id: string) => `/api/medical-record/${id}/medical-file/`,
  file: (id: string, fileId: string) => `/api/medical-record/${id}/medical-file/${fileId}/`,
} as const;

export const recordSequences = ['descending', 'ascending'] as const;
export type RecordSequence = (typeof recordSequences)[number];

/** Files one record may hold, and files one request may bring
 *  (docs/decisions/medical-records-api.md). */
export const maxFilesPerRecord = 20;
export const maxFilesPerRequest = 4;
export const titleMaxLength = 200;

export const medicalRecordListQuery = z
  .object({
    sequence: z.enum(recordSequences, 'Choose descending or ascending.').default('descending'),
    ...dateRangeFields,
    ...pageQueryFields(listMaxRows),
  })
  .refine(...dateRangeRule);
export type MedicalRecordListQuery = z.infer<typeof medicalRecordListQuery>;

/** GET /api/medical-record/outside-range/: the list's dates. */
export const medicalRecordOutsideRangeQuery = z.object(dateRangeFields).refine(...dateRangeRule);
export type MedicalRecordOutsideRangeQuery = z.infer<typeof medicalRecordOutsideRangeQuery>;

/** A file as answered: its download is a signed link. */
export const medicalFile = z.object({
  id: z.uuid(),
  file_name: z.string(),
  file_link: z.string(),
  /** The type its bytes proved (an addition to the original shape): the viewer draws images and
   *  PDFs differently (docs/decisions/image-viewer.md). */
  content_type: z.string(),
});
export type MedicalFile = z.infer<typeof medicalFile>;

/** A medical record (docs/product/records.md#record-calls). */
export const medicalRecord = z.object({
  id: z.uuid(),
  title: z.string(),
  record_date: calendarDate,
  note: z.string(),
  medical_files: z.array(medicalFile),
});
export type MedicalRecord = z.infer<typeof medicalRecord>;

export const medicalRecordList = z.array(medicalRecord);

export const newMedicalFileRequest = z.object({
  file_name: singleLineText('Give the file a name.')
    .trim()
    .min(1, 'Give the file a name.')
    .max(255, 'File name must be at most 255 characters.'),
  file_link: dataLink,
});
export type NewMedicalFileRequest = z.infer<typeof newMedicalFileRequest>;

const title = singleLineText('Title is required.')
  .trim()
  .min(1, 'Title is required.')
  .max(titleMaxLength, `Title must be at most ${titleMaxLength} characters.`);

export const newMedicalRecordRequest = z.object({
  title,
  record_date: requestCalendarDate,
  note: note.default(''),
  medical_files: z
    .array(newMedicalFileRequest)
    .max(maxFilesPerRequest, `Add at most ${maxFilesPerRequest} files at a time.`)
    .default([]),
});
export type NewMedicalRecordRequest = z.input<typeof newMedicalRecordRequest>;
export type NewMedicalRecord = z.output<typeof newMedicalRecordRequest>;

/** PUT changes the record's own fields; files are added and removed through /medical-file/. */
export const updateMedicalRecordRequest = z.object({
  title,
  record_date: requestCalendarDate,
  note: note.default(''),
});
export type UpdateMedicalRecordRequest = z.input<typeof updateMedicalRecordRequest>;
export type MedicalRecordUpdate = z.output<typeof updateMedicalRecordRequest>;

import { z } from 'zod';
import { pageQueryFields } from './pagination';
import { multiLineText, singleLineText } from './text';

/** Routes of the photo calls (docs/product/records.md#photo-calls). */
export const oralPhotoPaths = {
  list: '/api/oral-photo/',
  one: (id: string) => `/api/oral-photo/${id}/`,
} as const;

/** The two kinds of picture; X-ray is the default on the add form
 *  (docs/product/records.md#add-and-edit-a-photo). */
export const photoTypes = ['X-ray', 'Photo'] as const;
export const photoType = z.enum(photoTypes, 'Choose X-ray or Photo.');
export type PhotoType = z.infer<typeof photoType>;

export const photoTypeFilters = ['all', 'Photo', 'X-ray'] as const;
export type PhotoTypeFilter = (typeof photoTypeFilters)[number];

/** Longest note kept with a photo or a record. */
export const noteMaxLength = 2000;
/** Most rows one list answer holds (docs/decisions/architecture.md#api-conventions: every list is
 *  bounded). */
export const listMaxRows = 500;

/** A calendar date as docs/product/general.md#dates-and-times writes dates: YYYY-MM-DD. */
export const calendarDate = z.iso.date('Enter a date as YYYY-MM-DD.');

/** A file sent inline, as the web app sends it (docs/product/general.md#calls-and-errors):
 *  `data:<type>;base64,<payload>`. */
export const dataLink = singleLineText('Choose a file to upload.').regex(
  /^data:[^,]{0,256};base64,/i,
  'The file must be sent as a base64 data link.',
);

export const note = multiLineText()
  .trim()
  .max(noteMaxLength, `Note must be at most ${noteMaxLength} characters.`);

/** The date filter of the photo and record lists: both ends inclusive and optional. */
export const dateRangeFields = {
  startDate: calendarDate.optional(),
  endDate: calendarDate.optional(),
};

/** The start of a date range may not be after its end. */
export const dateRangeRule: [
  (range: { startDate?: string | undefined; endDate?: string | undefined }) => boolean,
  { message: string; path: string[] },
] = [
  ({ startDate, endDate }) =>
    startDate === undefined || endDate === undefined || startDate <= endDate,
  { message: 'The start date must not be after the end date.', path: ['endDate'] },
];

export const oralPhotoListQuery = z
  .object({
    photoType: z.enum(photoTypeFilters, 'Choose all, Photo or X-ray.').default('all'),
    ...dateRangeFields,
    ...pageQueryFields(listMaxRows),
  })
  .refine(...dateRangeRule);
export type OralPhotoListQuery = z.infer<typeof oralPhotoListQuery>;

/** An oral photo (docs/product/records.md#photo-calls), answered with signed links
 *  (docs/decisions/oral-photo-api.md). */
export const oralPhoto = z.object({
  id: z.uuid(),
  shoot_date: calendarDate,
  /** When the photo was stored (see docs/decisions/oral-photo-api.md). */
  date: z.iso.datetime({ offset: true }),
  photo_type: photoType,
  /** Signed link to the stored original. */
  image_link: z.string(),
  /** Signed link to a small WebP for list views (an addition to the original shape;
   *  docs/product/records.md#photo-calls). */
  thumbnail_link: z.string(),
  note: z.string(),
});
export type OralPhoto = z.infer<typeof oralPhoto>;

export const oralPhotoList = z.array(oralPhoto);

export const newOralPhotoRequest = z.object({
  shoot_date: calendarDate,
  photo_type: photoType,
  image_link: dataLink,
  note: note.default(''),
});
export type NewOralPhotoRequest = z.input<typeof newOralPhotoRequest>;
/** A create request as the API sees it after validation (defaults applied). */
export type NewOralPhoto = z.output<typeof newOralPhotoRequest>;

/** PUT sends the same fields; a new image is optional on edit (the stored one is kept). */
export const updateOralPhotoRequest = newOralPhotoRequest.extend({
  image_link: dataLink.optional(),
});
export type UpdateOralPhotoRequest = z.input<typeof updateOralPhotoRequest>;
export type OralPhotoUpdate = z.output<typeof updateOralPhotoRequest>;

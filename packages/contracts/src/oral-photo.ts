import { z } from 'zod';
import { dateInRange } from './dates';
import { pageQueryFields } from './pagination';
import { multiLineText, singleLineText } from './text';

/** Routes of the photo calls (docs/product/records.md#photo-calls). */
export const oralPhotoPaths = {
  list: '/api/oral-photo/',
  /** How many photos of the type asked for lie outside the dates (outsideRangeCount). */
  outsideRange: '/api/oral-photo/outside-range/',
  one: (id: string) => `/api/oral-photo/${id}/`,
  /** The five photos of one guided capture, with the set taken before it
   *  (docs/product/records.md#guided-capture). */
  captureSet: (setId: string) => `/api/oral-photo/capture-sets/${setId}/`,
} as const;

/** The five standard views of a guided capture, in the order they are taken
 *  (docs/decisions/guided-capture.md). */
export const captureViews = ['front', 'upper', 'lower', 'left', 'right'] as const;
export const captureView = z.enum(captureViews, 'Choose front, upper, lower, left or right.');
export type CaptureView = z.infer<typeof captureView>;

/** Each view's name and the hint shown over the camera. */
export const captureViewWords: Record<CaptureView, { name: string; hint: string }> = {
  front: {
    name: 'Front',
    hint: 'Smile wide with your teeth together, front teeth in the outline.',
  },
  upper: { name: 'Upper teeth', hint: 'Tilt your head back, open wide and show your upper teeth.' },
  lower: { name: 'Lower teeth', hint: 'Tilt your head down, open wide and show your lower teeth.' },
  left: {
    name: 'Left side',
    hint: 'Teeth together, pull your left cheek back, show your side teeth.',
  },
  right: {
    name: 'Right side',
    hint: 'Teeth together, pull your right cheek back, show your side teeth.',
  },
};

export const captureSetNotFoundMessage = 'This set of photos was not found.';
export const captureFieldsTogetherMessage = 'Send the set and the view together, or neither.';

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

const calendarDateMessage = 'Enter a date as YYYY-MM-DD.';
/** A calendar date as docs/product/general.md#dates-and-times writes dates: YYYY-MM-DD. */
export const calendarDate = z.iso.date(calendarDateMessage);
/** A calendar date in a request: also within 1900–2199 (docs/decisions/date-bounds.md). */
export const requestCalendarDate = dateInRange(calendarDateMessage);

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
  startDate: requestCalendarDate.optional(),
  endDate: requestCalendarDate.optional(),
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

/**
 * The 32 permanent teeth in FDI two-digit notation (ISO 3950): quadrant 1–4 (upper right, upper
 * left, lower left, lower right), then position 1–8 from the midline. Baby teeth (51–85) are not
 * taken (docs/decisions/tooth-tags.md).
 */
export const permanentTeeth: readonly number[] = [1, 2, 3, 4].flatMap((quadrant) =>
  [1, 2, 3, 4, 5, 6, 7, 8].map((position) => quadrant * 10 + position),
);

export const toothNumberMessage =
  'Use an FDI number of a permanent tooth: 11–18, 21–28, 31–38 or 41–48.';

const quadrantNames = ['upper right', 'upper left', 'lower left', 'lower right'];
const positionNames = [
  'central incisor',
  'lateral incisor',
  'canine',
  'first premolar',
  'second premolar',
  'first molar',
  'second molar',
  'wisdom tooth',
];

/** A permanent tooth in words, from the patient's side: 16 is 'upper right first molar'. */
export function toothName(tooth: number): string {
  const quadrant = quadrantNames[Math.floor(tooth / 10) - 1];
  const position = positionNames[(tooth % 10) - 1];
  return quadrant === undefined || position === undefined
    ? `tooth ${String(tooth)}`
    : `${quadrant} ${position}`;
}

/** One FDI tooth number (docs/product/records.md#tooth-tags). */
export const toothNumber = z
  .number(toothNumberMessage)
  .int(toothNumberMessage)
  .refine((tooth) => permanentTeeth.includes(tooth), toothNumberMessage);

/** The teeth a photo shows, as sent: any order, repeats dropped; kept and answered sorted. */
export const teethField = z
  .array(toothNumber, 'Teeth must be a list of FDI tooth numbers.')
  .max(permanentTeeth.length, 'A photo can show at most 32 teeth.')
  .transform((teeth) => [...new Set(teeth)].sort((a, b) => a - b));

/** Newest first is the list's order; `ascending` gives the per-tooth timeline, oldest first (the
 *  word and values of the record list's `sequence`). */
export const photoSequences = ['descending', 'ascending'] as const;
export type PhotoSequence = (typeof photoSequences)[number];

export const oralPhotoListQuery = z
  .object({
    photoType: z.enum(photoTypeFilters, 'Choose all, Photo or X-ray.').default('all'),
    ...dateRangeFields,
    /** Only the photos tagged with this tooth (docs/product/records.md#tooth-tags). */
    tooth: z.coerce.number(toothNumberMessage).pipe(toothNumber).optional(),
    sequence: z.enum(photoSequences, 'Choose descending or ascending.').default('descending'),
    ...pageQueryFields(listMaxRows),
  })
  .refine(...dateRangeRule);
export type OralPhotoListQuery = z.infer<typeof oralPhotoListQuery>;

/** GET /api/oral-photo/outside-range/: the list's type and dates. */
export const oralPhotoOutsideRangeQuery = z
  .object({
    photoType: z.enum(photoTypeFilters, 'Choose all, Photo or X-ray.').default('all'),
    ...dateRangeFields,
  })
  .refine(...dateRangeRule);
export type OralPhotoOutsideRangeQuery = z.infer<typeof oralPhotoOutsideRangeQuery>;

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
  /** Signed download link to the DICOM file the X-ray was imported from, kept as sent; null when
   *  the image was not a DICOM file (docs/product/records.md#dicom-x-rays). */
  original_link: z.string().nullable(),
  note: z.string(),
  /** The teeth the photo shows, FDI numbers in ascending order (docs/product/records.md#tooth-tags). */
  teeth: z.array(toothNumber),
  /** The guided capture the photo was taken in, and which of its views it is; null for a photo
   *  added as a file (docs/product/records.md#guided-capture). */
  capture_set_id: z.uuid().nullable(),
  capture_view: captureView.nullable(),
});
export type OralPhoto = z.infer<typeof oralPhoto>;

export const oralPhotoList = z.array(oralPhoto);

/** Date and type may be left out for a DICOM file, whose study date and modality give them
 *  (docs/decisions/dicom-import.md); any other image needs both. */
export const newOralPhotoRequest = z.object({
  shoot_date: requestCalendarDate.optional(),
  photo_type: photoType.optional(),
  image_link: dataLink,
  note: note.default(''),
  teeth: teethField.default([]),
  /** Chosen by the capture screen when the set starts; both or neither. */
  capture_set_id: z.uuid('This is not a set id.').optional(),
  capture_view: captureView.optional(),
});
export type NewOralPhotoRequest = z.input<typeof newOralPhotoRequest>;
/** A create request as the API sees it after validation (defaults applied). */
export type NewOralPhoto = z.output<typeof newOralPhotoRequest>;

/** PUT sends the same fields but the set and view, which stay as taken; a new image and the teeth
 *  are optional on edit (the stored ones are kept). */
export const updateOralPhotoRequest = newOralPhotoRequest
  .omit({ capture_set_id: true, capture_view: true })
  .extend({
    shoot_date: requestCalendarDate,
    photo_type: photoType,
    image_link: dataLink.optional(),
    teeth: teethField.optional(),
  });
export type UpdateOralPhotoRequest = z.input<typeof updateOralPhotoRequest>;
export type OralPhotoUpdate = z.output<typeof updateOralPhotoRequest>;

/** A guided capture: its five photos in view order (fewer when some were deleted), and the set
 *  taken before it, to compare view by view; null for the first set. */
const captureSetPhotos = z.object({
  id: z.uuid(),
  shoot_date: calendarDate,
  photos: z.array(oralPhoto),
});
export const captureSet = captureSetPhotos.extend({ previous: captureSetPhotos.nullable() });
export type CaptureSet = z.infer<typeof captureSet>;

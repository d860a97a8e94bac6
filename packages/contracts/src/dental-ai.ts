import { z } from 'zod';
import { planName } from './plans';
import { dataLink } from './oral-photo';
import { pageQueryFields } from './pagination';
import { imageKind, type ImageKind } from './image-kind';

/** Routes of docs/product/dental-ai.md#dental-ai-calls, plus the status and stored-result reads
 *  (docs/decisions/dental-ai-api.md). */
export const dentalAiPaths = {
  /** POST runs a detection; GET answers which types this server can run and the uses left. */
  root: '/api/dental-ai/',
  /** GET lists the member's stored results, newest first (docs/decisions/dental-ai-past-results.md). */
  results: '/api/dental-ai/results/',
  /** GET reads one stored result; DELETE deletes it and its image. */
  result: (id: string) => `/api/dental-ai/${id}/`,
  /** POST runs a detection on a stored photo or X-ray. */
  photo: '/api/dental-ai/photo/',
} as const;

/** The two detection types; caries is the default (docs/product/dental-ai.md#form). */
export const dentalAiTypes = ['caries', 'wisdom_teeth'] as const;
export const dentalAiType = z.enum(dentalAiTypes, 'Choose caries or wisdom_teeth.');
export type DentalAiType = z.infer<typeof dentalAiType>;

/** The radio labels and result titles (docs/product/dental-ai.md#form,
 *  docs/product/dental-ai.md#result). */
export const dentalAiTypeLabels: Record<DentalAiType, { option: string; resultTitle: string }> = {
  caries: { option: 'Caries', resultTitle: 'Caries Result' },
  wisdom_teeth: { option: 'Wisdom Teeth (Panel X-Ray Only)', resultTitle: 'Wisdom Teeth Result' },
};

/** Which image kinds a type's models read: wisdom teeth only show on panoramic X-rays. */
export const dentalAiImageKinds: Record<DentalAiType, readonly ImageKind[]> = {
  caries: ['photo', 'xray'],
  wisdom_teeth: ['xray'],
};

/** Dental AI on a photo or X-ray already stored (docs/product/dental-ai.md#on-a-stored-image):
 *  no second upload; the photo's type says which model reads it. */
export const dentalAiPhotoRequest = z.object({
  dental_ai: dentalAiType.default('caries'),
  oral_photo_id: z.uuid('This is not a photo id.'),
});
export type DentalAiPhotoRequest = z.input<typeof dentalAiPhotoRequest>;

/** The 404 detail when the photo to run on is not one of the member's (or is gone). */
export const dentalAiPhotoNotFoundMessage = 'This photo or X-ray was not found among yours.';

export const dentalAiRequest = z.object({
  dental_ai: dentalAiType.default('caries'),
  image_url: dataLink,
  /** The member's correction of the kind read from the pixels; absent, the pixels decide. */
  image_kind: imageKind.optional(),
});
export type DentalAiRequest = z.input<typeof dentalAiRequest>;

/** How sure the model is of a box, in words: 'likely' from its class's 'likely' threshold,
 *  'possible' from its 'possible' one up to that; both chosen on the validation split
 *  (docs/decisions/dental-ai-operating-points.md). */
export const tiers = ['likely', 'possible'] as const;
export type Tier = (typeof tiers)[number];

/**
 * A shipped model's figures as the product runs it, measured on its held-out test split by
 * `npm run eval:dental-ai -- --write` and kept in its metrics file (`product`): per class, the
 * two tiers' thresholds, and how many of the labelled boxes it marks (recall) and how many of its
 * boxes are on one (precision), for every box shown ('possible' and up) and for the 'likely' ones.
 */
export const modelFigures = z.object({
  measured_by: z.string(),
  images: z.number().int(),
  nms_iou: z.number(),
  match_iou: z.number(),
  classes: z.record(
    z.string(),
    z.object({
      boxes: z.number().int(),
      /** The score from which a box is shown, as 'possible'. */
      possible_from: z.number(),
      /** The score from which a box is 'likely'; null when no score was precise enough. */
      likely_from: z.number().nullable(),
      recall: z.number(),
      precision: z.number(),
      likely_recall: z.number().nullable(),
      likely_precision: z.number().nullable(),
    }),
  ),
});
export type ModelFigures = z.infer<typeof modelFigures>;

/** One box (docs/product/dental-ai.md#dental-ai-calls), in the pixels of the image as displayed
 *  (EXIF orientation applied). */
export const detectionBox = z.object({
  xmin: z.number(),
  ymin: z.number(),
  xmax: z.number(),
  ymax: z.number(),
  crop_prediction: z.string(),
  /** The model's score, 0 to 1 (an addition to the original shape). */
  confidence: z.number().min(0).max(1),
  /** The score's tier on a Dental AI result; null for a model without recorded thresholds (one
   *  configured on the server); absent where boxes are shown without it (a review's). */
  tier: z.enum(tiers).nullable().optional(),
});
export type DetectionBox = z.infer<typeof detectionBox>;

/** The Dental AI result (docs/product/dental-ai.md#dental-ai-calls), plus what a stored result
 *  needs to be shown again. */
export const dentalAiResult = z.object({
  id: z.uuid(),
  dental_ai: dentalAiType,
  /** A short-lived signed link to the stored image. */
  image_url: z.string(),
  image_width: z.number().int().positive(),
  image_height: z.number().int().positive(),
  detection_selection: z.array(detectionBox),
  /** Which kind of image the detection treated it as, and so which model ran. */
  image_kind: imageKind,
  /** Whether the member said the kind on the form, or it was read from the pixels. */
  image_kind_source: z.enum(['member', 'pixels']),
  model_name: z.string(),
  model_version: z.string(),
  created_at: z.iso.datetime({ offset: true }),
  /** The stored photo or X-ray the detection ran on; null for an upload, or once the photo is
   *  deleted. */
  oral_photo_id: z.uuid().nullable(),
  /** What the model is measured to find, from its metrics file; null for a model without one. */
  model_figures: modelFigures
    .extend({
      /** The kind of image the figures were measured on. */
      image_kind: imageKind,
    })
    .nullable(),
});
export type DentalAiResult = z.infer<typeof dentalAiResult>;

/** The most results one page of the past-results list holds. */
export const dentalAiResultsPageSize = 50;
export const dentalAiResultListQuery = z.object({
  ...pageQueryFields(dentalAiResultsPageSize),
  /** Only the results of this stored photo (its page lists them). */
  oral_photo_id: z.uuid('This is not a photo id.').optional(),
});
export type DentalAiResultListQuery = z.infer<typeof dentalAiResultListQuery>;
export const dentalAiResultList = z.array(dentalAiResult);

/** What the form needs before a run: which types this server can run, and the plan's uses. */
export const dentalAiStatus = z.object({
  types: z.array(
    z.object({
      dental_ai: dentalAiType,
      available: z.boolean(),
      /** The image kinds this server has a model for, for this type. */
      image_kinds: z.array(imageKind),
    }),
  ),
  uses: z.object({
    plan: planName,
    used: z.number().int().min(0),
    allowed: z.number().int().positive(),
  }),
});
export type DentalAiStatus = z.infer<typeof dentalAiStatus>;

/** The 503 detail when no model serves a type. */
export const dentalAiUnavailableMessage = (type: DentalAiType) =>
  `${dentalAiTypeLabels[type].option} detection is not available on this server.`;

/** The 503 detail when a type has models, but none for this kind of image. */
export const dentalAiKindUnavailableMessage = (type: DentalAiType, kind: ImageKind) =>
  `${dentalAiTypeLabels[type].option} detection on ${kind === 'photo' ? 'photos' : 'X-rays'} is not available on this server.`;

/** The 422 detail when a type cannot read this kind of image at all (wisdom teeth on a photo). */
export const dentalAiWrongKindMessage = (type: DentalAiType) =>
  `${dentalAiTypeLabels[type].option} works on panoramic X-rays, and this image is a colour photo. Choose an X-ray, or choose 'This is an X-ray' if it is one.`;

/** The disclaimer under every result (docs/product/dental-ai.md#result). */
export const dentalAiDisclaimer =
  'This result is for consultation reference only. It does not replace a face-to-face diagnosis by a dentist; please still seek medical treatment.';

/** docs/product/dental-ai.md#boxes-and-colours: boxes drawn with these colours, one per class in
 *  order of first appearance. */
export const detectionColours = ['red', 'green', 'yellow', 'purple', 'blue'] as const;
export type DetectionColour = (typeof detectionColours)[number];

/**
 * Each class label gets the next colour in the order its first box appears; a sixth class starts
 * the list again (five colours: docs/product/dental-ai.md#boxes-and-colours).
 */
export function coloursByFirstAppearance(labels: readonly string[]): Map<string, DetectionColour> {
  const colours = new Map<string, DetectionColour>();
  for (const label of labels) {
    if (!colours.has(label)) {
      colours.set(label, detectionColours[colours.size % detectionColours.length] ?? 'red');
    }
  }
  return colours;
}

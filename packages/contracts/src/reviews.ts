import { z } from 'zod';
import { detectionBox } from './dental-ai';
import { planName } from './plans';
import { multiLineText, singleLineText } from './text';

/** A dentist's review of the member's photos or a Dental AI result (docs/product/photo-reviews.md). */
export const reviewPaths = {
  /** POST asks for a review; GET lists the member's reviews with the plan's uses. */
  root: '/api/reviews/',
  one: (id: string) => `/api/reviews/${encodeURIComponent(id)}/`,
  /** GET, PUT and DELETE the consent that reviewed images may improve the models. */
  consent: '/api/reviews/consent/',
} as const;

/** The practice's side: the reviews waiting, one review with its images, the answer. */
export const clinicReviewRoutePatterns = {
  list: '/api/clinic/reviews/',
  one: '/api/clinic/reviews/:id/',
} as const;

export const clinicReviewPaths = {
  list: clinicReviewRoutePatterns.list,
  one: (id: string) => `/api/clinic/reviews/${encodeURIComponent(id)}/`,
} as const;

export const reviewQuestionMaxLength = 2000;
export const reviewReportMaxLength = 5000;
export const reviewLabelMaxLength = 100;
/** Most photos one review asks about, and most findings one answer holds. */
export const reviewPhotosMax = 10;
export const reviewFindingsMax = 200;

export const reviewNotFoundMessage = 'This review was not found.';
export const reviewPhotoNotFoundMessage = 'A photo or X-ray to review was not found among yours.';
export const reviewDentalAiNotFoundMessage = 'This Dental AI result was not found among yours.';
export const reviewFindingsMismatchMessage = 'Some findings do not fit the review’s images.';
export const reviewAlreadyAnsweredMessage = 'This review has already been answered.';
export const reviewSubjectMessage = 'Choose photos or X-rays, or a Dental AI result, to review.';

const uuidMessage = 'This is not an id.';

export const reviewRequest = z
  .object({
    photos: z
      .array(z.uuid(uuidMessage))
      .min(1, reviewSubjectMessage)
      .max(reviewPhotosMax, `Choose at most ${String(reviewPhotosMax)} photos or X-rays.`)
      .optional(),
    dental_ai: z.uuid(uuidMessage).optional(),
    question: multiLineText('Write your question.')
      .trim()
      .min(1, 'Write your question.')
      .max(
        reviewQuestionMaxLength,
        `The question may be at most ${String(reviewQuestionMaxLength)} characters.`,
      ),
  })
  .refine((request) => (request.photos === undefined) !== (request.dental_ai === undefined), {
    message: reviewSubjectMessage,
    path: ['photos'],
  });
export type ReviewRequest = z.infer<typeof reviewRequest>;

export const reviewStatuses = ['waiting', 'answered'] as const;
export type ReviewStatus = (typeof reviewStatuses)[number];
export const reviewVerdicts = ['confirmed', 'rejected', 'added'] as const;
export type ReviewVerdict = (typeof reviewVerdicts)[number];

type Box = [x1: number, y1: number, x2: number, y2: number];

/** [x1, y1, x2, y2] in the pixels of the image as shown (upright), x1 < x2 and y1 < y2. Four
 *  numbers rather than a z.tuple: the web app's entry chunk holds zod, and a tuple would bring
 *  zod's tuple type into every screen's first load (/login) for this one field. */
export const reviewBox = z
  .array(z.number().min(0))
  .length(4, 'A box is four numbers: [x1, y1, x2, y2].')
  .refine(
    ([x1 = 0, y1 = 0, x2 = 0, y2 = 0]) => x1 < x2 && y1 < y2,
    'A box needs x1 < x2 and y1 < y2.',
  ) as unknown as z.ZodType<Box, Box>;

/** One finding of the dentist: an AI box confirmed or rejected, or a box they drew. */
export const reviewFinding = z.object({
  box: reviewBox,
  label: singleLineText('Name what the box shows.')
    .trim()
    .min(1, 'Name what the box shows.')
    .max(
      reviewLabelMaxLength,
      `A label may be at most ${String(reviewLabelMaxLength)} characters.`,
    ),
  verdict: z.enum(reviewVerdicts, 'Choose confirmed, rejected or added.'),
  /** The index of the Dental AI box judged; null for a box the dentist drew ('added'). */
  ai_box: z.number().int().min(0).nullable(),
  /** The photo the box is on; null on a Dental AI result's image. */
  photo: z.uuid(uuidMessage).nullable(),
});
export type ReviewFinding = z.infer<typeof reviewFinding>;

/** An image of the review with a link to it: the photo's, or the Dental AI result's (photo null). */
export const reviewImage = z.object({
  photo: z.uuid().nullable(),
  image_url: z.string(),
});

/** The member's review: their question and, once answered, the dentist's report and findings. */
export const review = z.object({
  id: z.uuid(),
  status: z.enum(reviewStatuses),
  question: z.string(),
  /** The photos or X-rays asked about (empty for a Dental AI result). */
  photos: z.array(z.uuid()),
  dental_ai: z.uuid().nullable(),
  images: z.array(reviewImage),
  report: z.string().nullable(),
  findings: z.array(reviewFinding),
  reviewer: z.object({ name: z.string() }).nullable(),
  created_at: z.iso.datetime({ offset: true }),
  answered_at: z.iso.datetime({ offset: true }).nullable(),
});
export type Review = z.infer<typeof review>;

/** The plan's reviews in this membership year (docs/product/membership.md#plan-limits). */
export const reviewUses = z.object({
  plan: planName,
  used: z.number().int().min(0),
  allowed: z.number().int().positive(),
});

/** The member's reviews, newest first (a handful a year: the plan bounds them), and the uses. */
export const reviewList = z.object({ results: z.array(review), uses: reviewUses });
export type ReviewList = z.infer<typeof reviewList>;

export const reviewCreated = z.object({ id: z.uuid() });

/** The consent that reviewed images may improve the models: off (null) unless given. */
export const trainingConsent = z.object({
  granted_at: z.iso.datetime({ offset: true }).nullable(),
});
export type TrainingConsent = z.infer<typeof trainingConsent>;

/** What the practitioner needs to answer: each image's size and the AI's boxes on it. */
export const clinicReviewImage = reviewImage.extend({
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  /** The Dental AI result's boxes, indexed by `ai_box`; empty on a photo. */
  ai_boxes: z.array(detectionBox),
});

export const clinicReview = review.omit({ images: true }).extend({
  patient: z.object({ id: z.uuid(), username: z.string() }),
  images: z.array(clinicReviewImage),
});
export type ClinicReview = z.infer<typeof clinicReview>;

export const clinicReviewSummary = clinicReview.omit({ images: true, findings: true });
export const clinicReviewList = z.object({ results: z.array(clinicReviewSummary) });
export type ClinicReviewList = z.infer<typeof clinicReviewList>;

/** Most reviews one staff list holds, oldest waiting first. */
export const clinicReviewListMax = 200;

export const clinicReviewListQuery = z.object({
  status: z.enum(reviewStatuses, 'Choose waiting or answered.').default('waiting'),
});

export const reviewAnswer = z.object({
  report: multiLineText('Write the report.')
    .trim()
    .min(1, 'Write the report.')
    .max(
      reviewReportMaxLength,
      `The report may be at most ${String(reviewReportMaxLength)} characters.`,
    ),
  findings: z
    .array(reviewFinding)
    .max(reviewFindingsMax, `At most ${String(reviewFindingsMax)} findings.`),
});
export type ReviewAnswer = z.infer<typeof reviewAnswer>;

import {
  imageKindNames,
  type DentalAiResult,
  type DentalAiType,
  type ImageKind,
} from '@dental/contracts';

/** What each detection type looks for, in a patient's words (docs/decisions/dental-ai-plain-results.md). */
export const lookedFor: Record<DentalAiType, string> = {
  caries: 'We looked for signs of tooth decay (caries) on your image.',
  wisdom_teeth:
    'We looked for wisdom teeth that are stuck under the gum or bone (impacted) on your panoramic X-ray.',
};

/** '1 area marked' / '3 areas marked': the count a result card and the result page share. */
export const markedAreas = (count: number) =>
  count === 1 ? '1 area marked' : `${String(count)} areas marked`;

export const markedAreasSentence = (count: number) =>
  count === 1 ? 'The model marked 1 area.' : `The model marked ${String(count)} areas.`;

export const nextStepsWhenMarked =
  'What to do next: show this result to your dentist. Only a dentist can tell whether a marked area needs care.';

export const nothingMarked =
  'Nothing was marked on this image. This does not rule anything out: the model can miss problems, so keep your regular dental check-ups and see your dentist if something hurts.';

/** What the image was taken for, which decided the model that looked at it. */
export const readAsSentence = (kind: ImageKind, source: DentalAiResult['image_kind_source']) =>
  source === 'member'
    ? `We read your image as ${imageKindNames[kind]}, as you told us.`
    : `We read your image as ${imageKindNames[kind]}.`;

import type { DentalAiResult, DentalAiType } from './dental-ai';
import { imageKindNames, type ImageKind } from './image-kind';

/** What each detection type looks for, in a patient's words (docs/decisions/dental-ai-plain-results.md). */
export const lookedFor: Record<DentalAiType, string> = {
  caries: 'We looked for signs of tooth decay (caries) on your image.',
  wisdom_teeth:
    'We looked for wisdom teeth that are stuck under the gum or bone (impacted) on your panoramic X-ray.',
};

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

/** A share in plain words, to the nearest tenth: 'about 1 in 5', 'about 7 in 10'. */
export function aboutShare(share: number): string {
  const tenths = Math.round(share * 10);
  if (tenths <= 0) return 'fewer than 1 in 10';
  if (tenths >= 10) return 'nearly all';
  const divisor = tenths % 2 === 0 ? (tenths % 10 === 0 ? 10 : 2) : tenths === 5 ? 5 : 1;
  return `about ${String(tenths / divisor)} in ${String(10 / divisor)}`;
}

/** What a class's boxes are, in a patient's words, for the figures under 'About this result'. */
const findingNouns: Record<string, { one: string; many: string; none: string }> = {
  Cavity: { one: 'cavity', many: 'cavities', none: 'no decay' },
  'Impacted Tooth': { one: 'impacted tooth', many: 'impacted teeth', none: 'no impacted tooth' },
};

/**
 * What the model is measured to find (docs/decisions/dental-ai-in-the-record.md): each reported
 * class's figures from its metrics file, as measured through the product on held-out images, at
 * both tiers (docs/decisions/dental-ai-operating-points.md).
 */
export function measuredSentences(figures: NonNullable<DentalAiResult['model_figures']>): string[] {
  const images = `${String(figures.images)} held-out ${figures.image_kind === 'xray' ? 'X-rays' : 'photos'}`;
  return Object.entries(figures.classes).map(([name, measured]) => {
    const noun = findingNouns[name] ?? { one: name, many: `${name} areas`, none: `no ${name}` };
    const likely =
      measured.likely_from === null ||
      measured.likely_recall === null ||
      measured.likely_precision === null
        ? 'It calls none of its boxes likely.'
        : measured.likely_from <= measured.possible_from
          ? 'It calls every box it shows likely.'
          : `Of the boxes it calls likely, ${aboutShare(measured.likely_precision)} were on such a ${noun.one}, and they marked ${aboutShare(measured.likely_recall)} of the ${noun.many}.`;
    return `On ${images} it had not seen in training, it marked ${aboutShare(measured.recall)} of the ${noun.many} that had been marked by hand, so a clean result does not mean ${noun.none}. Of all its boxes, ${aboutShare(measured.precision)} were on such a ${noun.one}. ${likely}`;
  });
}

/** What the words on the boxes mean, with the thresholds of the class they come from. */
export function tierSentence(point: { possible_from: number; likely_from: number | null }): string {
  const score = (value: number) => value.toFixed(2);
  const zoom = 'Zoom to read the word on each box.';
  if (point.likely_from === null) {
    return `'Possible', with a dashed line, marks a box the model scored ${score(point.possible_from)} or more (out of 1). No score of this model was precise enough to call a box likely. ${zoom} It is not a diagnosis.`;
  }
  if (point.likely_from <= point.possible_from) {
    return `'Likely' marks a box the model scored ${score(point.likely_from)} or more (out of 1); it shows no box scored lower. ${zoom} It is not a diagnosis.`;
  }
  return `'Likely' marks a box the model scored ${score(point.likely_from)} or more (out of 1); 'possible', with a dashed line, one it scored from ${score(point.possible_from)} up to that. ${zoom} Neither is a diagnosis.`;
}

import { matchCounts, type ImageBoxes } from './average-precision';

/** Recall and precision of the boxes scored at or above a threshold (IoU ≥ 0.5). */
export interface TierFigures {
  recall: number;
  precision: number;
}

/** A class's two score thresholds and what each measured on the split they were chosen on. */
export interface OperatingPoint {
  /** From here a box is shown, dashed, as 'possible'. */
  possible: number;
  /** From here a box is 'likely'; null when no threshold reached the precision goal. */
  likely: number | null;
  /** Whether 'possible' reached the recall goal, or is the lowest threshold allowed. */
  recall_goal_met: boolean;
  at_possible: TierFigures;
  at_likely: TierFigures | null;
}

export interface OperatingPointGoals {
  /** 'Likely': the lowest threshold whose boxes are at least this precise. */
  likelyPrecision: number;
  /** 'Possible': the highest threshold that still finds this share of the labelled boxes. */
  possibleRecall: number;
  /** No box is shown below this score, whatever the recall goal asks. */
  lowestShown: number;
}

export const operatingPointGoals: OperatingPointGoals = {
  likelyPrecision: 0.5,
  possibleRecall: 0.6,
  lowestShown: 0.05,
};

const round = (value: number) => Math.round(value * 1000) / 1000;

/** Recall and precision of `images`' predictions scored `threshold` or more. */
export function figuresAt(images: readonly ImageBoxes[], threshold: number): TierFigures {
  const counts = matchCounts(
    images.map((image) => ({
      ...image,
      predicted: image.predicted.filter((box) => box.score >= threshold),
    })),
  );
  return {
    recall: round(counts.matched / Math.max(counts.labelled, 1)),
    precision: round(counts.matched / Math.max(counts.predicted, 1)),
  };
}

/** Every hundredth from 0.99 down to `lowest`: the thresholds tried. */
export function thresholdsDownTo(lowest: number): number[] {
  const thresholds: number[] = [];
  for (let hundredths = 99; hundredths >= Math.round(lowest * 100); hundredths -= 1) {
    thresholds.push(hundredths / 100);
  }
  return thresholds;
}

/**
 * Chooses one class's thresholds on a validation split's predictions (made at a score below
 * `lowestShown`, after NMS), trying every hundredth from 0.99 down to `lowestShown`
 * (docs/decisions/dental-ai-operating-points.md).
 */
export function chooseOperatingPoint(
  images: readonly ImageBoxes[],
  goals: OperatingPointGoals = operatingPointGoals,
): OperatingPoint {
  const measured = thresholdsDownTo(goals.lowestShown).map((threshold) => ({
    threshold,
    ...figuresAt(images, threshold),
  }));
  const precise = measured.filter(
    (point) => point.precision >= goals.likelyPrecision && point.recall > 0,
  );
  const likely = precise.at(-1);
  const reachingRecall = measured.find((point) => point.recall >= goals.possibleRecall);
  const lowest = measured.at(-1);
  if (lowest === undefined) throw new Error('lowestShown must be below 1.');
  const possibleCandidate = reachingRecall ?? lowest;
  // 'Possible' never starts above 'likely': every likely box is also shown.
  const possible =
    likely !== undefined && possibleCandidate.threshold > likely.threshold
      ? likely
      : possibleCandidate;
  return {
    possible: possible.threshold,
    likely: likely?.threshold ?? null,
    recall_goal_met: possible.recall >= goals.possibleRecall,
    at_possible: { recall: possible.recall, precision: possible.precision },
    at_likely: likely === undefined ? null : { recall: likely.recall, precision: likely.precision },
  };
}

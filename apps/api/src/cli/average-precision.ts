import type { Box } from '../adapters/detector/letterbox';
import { intersectionOverUnion } from '../adapters/detector/nms';

/** COCO's IoU thresholds 0.50, 0.55 … 0.95. */
export const iouThresholds = Array.from({ length: 10 }, (_, index) => 0.5 + index * 0.05);
const recallPoints = Array.from({ length: 101 }, (_, index) => index / 100);

export interface ScoredBox extends Box {
  score: number;
}

/** One image's predictions and labelled boxes of one class. */
export interface ImageBoxes {
  predicted: ScoredBox[];
  labelled: Box[];
}

/** Area under the precision envelope sampled at 101 recall points (COCO). */
function interpolatedPrecision(recall: number[], precision: number[]): number {
  const envelope = [...precision];
  for (let index = envelope.length - 2; index >= 0; index -= 1) {
    envelope[index] = Math.max(envelope[index] ?? 0, envelope[index + 1] ?? 0);
  }
  let sum = 0;
  for (const point of recallPoints) {
    const first = recall.findIndex((value) => value >= point);
    sum += first < 0 ? 0 : (envelope[first] ?? 0);
  }
  return sum / recallPoints.length;
}

/**
 * Average precision of one class at each IoU threshold, as training/evaluate.py computes it:
 * predictions best score first, each matched greedily to the unmatched labelled box it overlaps
 * most in its image. Zero everywhere when the class has no labelled box.
 */
export function averagePrecisions(images: readonly ImageBoxes[]): number[] {
  const total = images.reduce((sum, image) => sum + image.labelled.length, 0);
  const scored = images
    .flatMap((image, imageIndex) => image.predicted.map((box) => ({ box, imageIndex })))
    .sort((a, b) => b.box.score - a.box.score);
  return iouThresholds.map((threshold) => {
    if (total === 0 || scored.length === 0) return 0;
    const taken = images.map((image) => image.labelled.map(() => false));
    let truePositives = 0;
    const recall: number[] = [];
    const precision: number[] = [];
    scored.forEach(({ box, imageIndex }, rank) => {
      const labelled = images[imageIndex]?.labelled ?? [];
      const takenHere = taken[imageIndex] ?? [];
      let best = -1;
      let bestIou = -1;
      labelled.forEach((truth, index) => {
        const iou = takenHere[index] ? -1 : intersectionOverUnion(box, truth);
        if (iou > bestIou) {
          bestIou = iou;
          best = index;
        }
      });
      if (best >= 0 && bestIou >= threshold) {
        takenHere[best] = true;
        truePositives += 1;
      }
      recall.push(truePositives / total);
      precision.push(truePositives / (rank + 1));
    });
    return interpolatedPrecision(recall, precision);
  });
}

/** How many labelled and predicted boxes there are, and how many of them were matched. */
export interface MatchCounts {
  labelled: number;
  predicted: number;
  matched: number;
}

/**
 * Each prediction matched greedily (best score first) to one labelled box of its image that it
 * overlaps by at least `iou`: recall is matched / labelled, precision matched / predicted.
 */
export function matchCounts(images: readonly ImageBoxes[], iou = 0.5): MatchCounts {
  const counts = { labelled: 0, predicted: 0, matched: 0 };
  for (const image of images) {
    counts.labelled += image.labelled.length;
    counts.predicted += image.predicted.length;
    const taken = image.labelled.map(() => false);
    for (const box of [...image.predicted].sort((a, b) => b.score - a.score)) {
      let best = -1;
      let bestIou = iou;
      image.labelled.forEach((truth, index) => {
        const overlap = taken[index] ? -1 : intersectionOverUnion(box, truth);
        if (overlap >= bestIou) {
          bestIou = overlap;
          best = index;
        }
      });
      if (best >= 0) {
        taken[best] = true;
        counts.matched += 1;
      }
    }
  }
  return counts;
}

/**
 * The share of labelled boxes that some prediction overlaps by at least `iou`: what a member sees
 * of what is there, when the predictions are the product's own (its threshold and NMS).
 */
export function recall(images: readonly ImageBoxes[], iou = 0.5): number {
  const { labelled, matched } = matchCounts(images, iou);
  return labelled === 0 ? 0 : matched / labelled;
}

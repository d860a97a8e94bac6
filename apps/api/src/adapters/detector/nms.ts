import type { Candidate } from './decode';
import type { Box } from './letterbox';

/** Ultralytics' cap on boxes per image. */
export const maxDetections = 300;

export function intersectionOverUnion(a: Box, b: Box): number {
  const width = Math.min(a.x2, b.x2) - Math.max(a.x1, b.x1);
  const height = Math.min(a.y2, b.y2) - Math.max(a.y1, b.y1);
  if (width <= 0 || height <= 0) return 0;
  const intersection = width * height;
  const union = (a.x2 - a.x1) * (a.y2 - a.y1) + (b.x2 - b.x1) * (b.y2 - b.y1) - intersection;
  return union > 0 ? intersection / union : 0;
}

/**
 * Class-aware greedy non-maximum suppression: best score first, a box is dropped when it overlaps
 * a kept box of the same class by more than `iou`. Boxes of different classes never suppress
 * each other.
 */
export function nonMaximumSuppression(candidates: readonly Candidate[], iou: number): Candidate[] {
  const kept: Candidate[] = [];
  const byScore = [...candidates].sort((a, b) => b.score - a.score);
  for (const candidate of byScore) {
    if (kept.length === maxDetections) break;
    const suppressed = kept.some(
      (box) =>
        box.classIndex === candidate.classIndex && intersectionOverUnion(box, candidate) > iou,
    );
    if (!suppressed) kept.push(candidate);
  }
  return kept;
}

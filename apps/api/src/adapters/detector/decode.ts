import type { Box } from './letterbox';

export interface Candidate extends Box {
  classIndex: number;
  score: number;
}

export type OutputLayout = 'yolov8' | 'yolov5';

/**
 * Which of the two layouts people export an output of these dimensions is: Ultralytics
 * YOLOv8/YOLO11 `[1, 4+C, N]`, or YOLOv5 `[1, N, 5+C]`.
 */
export function outputLayout(dims: readonly number[], classCount: number): OutputLayout {
  const [batch, rows, columns] = dims;
  if (dims.length === 3 && batch === 1) {
    if (rows === 4 + classCount) return 'yolov8';
    if (columns === 5 + classCount) return 'yolov5';
  }
  throw new Error(
    `The model's output [${dims.join(', ')}] is neither [1, ${String(4 + classCount)}, N] (YOLOv8) nor [1, N, ${String(5 + classCount)}] (YOLOv5) for ${String(classCount)} classes.`,
  );
}

export interface DecodeOptions {
  classCount: number;
  /** Boxes scoring below this are dropped. */
  confidence: number;
  /** Only these class indexes are reported; all when absent. */
  classes?: ReadonlySet<number>;
}

/**
 * The boxes above the confidence threshold, in input pixels, from centre-x, centre-y, width,
 * height. YOLOv8 has no objectness: the score is the best class score. YOLOv5's score is
 * objectness × class score.
 */
export function decodeOutput(
  data: Float32Array,
  dims: readonly number[],
  options: DecodeOptions,
): Candidate[] {
  const { classCount, confidence, classes } = options;
  const layout = outputLayout(dims, classCount);
  const anchors = layout === 'yolov8' ? (dims[2] ?? 0) : (dims[1] ?? 0);
  // Element c of anchor a: YOLOv8 is channel-major, YOLOv5 anchor-major.
  const at =
    layout === 'yolov8'
      ? (anchor: number, column: number) => data[column * anchors + anchor] ?? 0
      : (anchor: number, column: number) => data[anchor * (5 + classCount) + column] ?? 0;
  const firstClassColumn = layout === 'yolov8' ? 4 : 5;

  const candidates: Candidate[] = [];
  for (let anchor = 0; anchor < anchors; anchor += 1) {
    const objectness = layout === 'yolov8' ? 1 : at(anchor, 4);
    if (objectness < confidence) continue;
    let classIndex = -1;
    let best = -Infinity;
    for (let index = 0; index < classCount; index += 1) {
      if (classes !== undefined && !classes.has(index)) continue;
      const score = at(anchor, firstClassColumn + index);
      if (score > best) {
        best = score;
        classIndex = index;
      }
    }
    const score = objectness * best;
    if (classIndex < 0 || score < confidence) continue;
    const cx = at(anchor, 0);
    const cy = at(anchor, 1);
    const halfWidth = at(anchor, 2) / 2;
    const halfHeight = at(anchor, 3) / 2;
    candidates.push({
      x1: cx - halfWidth,
      y1: cy - halfHeight,
      x2: cx + halfWidth,
      y2: cy + halfHeight,
      classIndex,
      score,
    });
  }
  return candidates;
}

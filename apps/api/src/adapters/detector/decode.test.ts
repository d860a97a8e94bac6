import { describe, expect, it } from 'vitest';
import { decodeOutput, outputLayout } from './decode';

/** YOLOv8 `[1, 4+C, N]`: rows are cx, cy, w, h, then one score row per class. */
function yolov8(anchors: number[][]): { data: Float32Array; dims: number[] } {
  const rows = anchors[0]?.length ?? 0;
  const data = new Float32Array(rows * anchors.length);
  anchors.forEach((anchor, index) => {
    anchor.forEach((value, row) => (data[row * anchors.length + index] = value));
  });
  return { data, dims: [1, rows, anchors.length] };
}

/** YOLOv5 `[1, N, 5+C]`: each row is cx, cy, w, h, objectness, class scores. */
function yolov5(anchors: number[][]): { data: Float32Array; dims: number[] } {
  return {
    data: Float32Array.from(anchors.flat()),
    dims: [1, anchors.length, anchors[0]?.length ?? 0],
  };
}

describe('outputLayout', () => {
  it.each([
    { dims: [1, 6, 8400], classes: 2, layout: 'yolov8' },
    { dims: [1, 84, 8400], classes: 80, layout: 'yolov8' },
    { dims: [1, 25200, 7], classes: 2, layout: 'yolov5' },
    { dims: [1, 25200, 85], classes: 80, layout: 'yolov5' },
  ])('$dims with $classes classes is $layout', ({ dims, classes, layout }) => {
    expect(outputLayout(dims, classes)).toBe(layout);
  });

  it.each([
    { dims: [1, 7, 100], classes: 2 },
    { dims: [2, 6, 100], classes: 2 },
    { dims: [6, 100], classes: 2 },
  ])('refuses $dims for $classes classes', ({ dims, classes }) => {
    expect(() => outputLayout(dims, classes)).toThrow(/neither/);
  });
});

describe('decodeOutput', () => {
  const options = { classCount: 2, confidence: 0.25 };

  it.each([
    {
      name: 'YOLOv8: the best class score, centre to corners',
      output: yolov8([[50, 40, 20, 10, 0.2, 0.9]]),
      expected: [{ x1: 40, y1: 35, x2: 60, y2: 45, classIndex: 1, score: 0.9 }],
    },
    {
      name: 'YOLOv8: below the threshold is dropped',
      output: yolov8([
        [50, 40, 20, 10, 0.2, 0.24],
        [10, 10, 4, 4, 0.25, 0.1],
      ]),
      expected: [{ x1: 8, y1: 8, x2: 12, y2: 12, classIndex: 0, score: 0.25 }],
    },
    {
      name: 'YOLOv5: objectness times class score',
      output: yolov5([[50, 40, 20, 10, 0.5, 0.9, 0.6]]),
      expected: [{ x1: 40, y1: 35, x2: 60, y2: 45, classIndex: 0, score: 0.45 }],
    },
    {
      name: 'YOLOv5: low objectness drops a high class score',
      output: yolov5([[50, 40, 20, 10, 0.2, 1, 1]]),
      expected: [],
    },
    {
      name: 'YOLOv5: the product must pass the threshold too',
      output: yolov5([[50, 40, 20, 10, 0.4, 0.5, 0.1]]),
      expected: [],
    },
  ])('$name', ({ output, expected }) => {
    const decoded = decodeOutput(output.data, output.dims, options);
    expect(decoded).toHaveLength(expected.length);
    decoded.forEach((candidate, index) => {
      const want = expected[index];
      for (const key of ['x1', 'y1', 'x2', 'y2', 'score'] as const) {
        expect(candidate[key]).toBeCloseTo(want?.[key] ?? NaN, 6);
      }
      expect(candidate.classIndex).toBe(want?.classIndex);
    });
  });

  it('reports only the classes asked for, scoring each anchor by those classes', () => {
    const output = yolov8([
      [50, 40, 20, 10, 0.9, 0.3],
      [10, 10, 4, 4, 0.8, 0.1],
    ]);
    const decoded = decodeOutput(output.data, output.dims, { ...options, classes: new Set([1]) });
    expect(decoded).toEqual([
      expect.objectContaining({ classIndex: 1, score: expect.closeTo(0.3, 6) as number }),
    ]);
  });
});

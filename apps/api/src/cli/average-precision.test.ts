import { describe, expect, it } from 'vitest';
import { averagePrecisions, type ImageBoxes } from './average-precision';

const box = (x1: number, y1: number, x2: number, y2: number) => ({ x1, y1, x2, y2 });
const scored = (score: number, b: ReturnType<typeof box>) => ({ ...b, score });

describe('averagePrecisions', () => {
  it.each<{ name: string; images: ImageBoxes[]; ap50: number; ap50to95: number }>([
    {
      name: 'every box found exactly',
      images: [
        { predicted: [scored(0.9, box(0, 0, 10, 10))], labelled: [box(0, 0, 10, 10)] },
        { predicted: [scored(0.8, box(5, 5, 20, 20))], labelled: [box(5, 5, 20, 20)] },
      ],
      ap50: 1,
      ap50to95: 1,
    },
    {
      name: 'half the boxes missed',
      images: [
        { predicted: [scored(0.9, box(0, 0, 10, 10))], labelled: [box(0, 0, 10, 10)] },
        { predicted: [], labelled: [box(5, 5, 20, 20)] },
      ],
      // Precision 1 up to recall 0.5: 51 of 101 recall points.
      ap50: 51 / 101,
      ap50to95: 51 / 101,
    },
    {
      name: 'a false positive ranked first',
      images: [
        {
          predicted: [scored(0.9, box(50, 50, 60, 60)), scored(0.8, box(0, 0, 10, 10))],
          labelled: [box(0, 0, 10, 10)],
        },
      ],
      ap50: 0.5,
      ap50to95: 0.5,
    },
    {
      name: 'a box overlapping 0.6: found at 0.50 to 0.60, missed above',
      images: [{ predicted: [scored(0.9, box(0, 0, 10, 6))], labelled: [box(0, 0, 10, 10)] }],
      ap50: 1,
      ap50to95: 0.3,
    },
    {
      name: 'no labelled boxes',
      images: [{ predicted: [scored(0.9, box(0, 0, 10, 10))], labelled: [] }],
      ap50: 0,
      ap50to95: 0,
    },
  ])('$name', ({ images, ap50, ap50to95 }) => {
    const aps = averagePrecisions(images);
    expect(aps[0]).toBeCloseTo(ap50, 10);
    expect(aps.reduce((sum, ap) => sum + ap, 0) / aps.length).toBeCloseTo(ap50to95, 10);
  });

  it('matches each labelled box once', () => {
    const aps = averagePrecisions([
      {
        predicted: [scored(0.9, box(0, 0, 10, 10)), scored(0.8, box(0, 0, 10, 10))],
        labelled: [box(0, 0, 10, 10)],
      },
    ]);
    // The duplicate is a false positive after full recall: precision 1 at every recall point.
    expect(aps[0]).toBeCloseTo(1, 10);
  });
});

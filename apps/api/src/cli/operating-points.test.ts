import { describe, expect, it } from 'vitest';
import type { ImageBoxes } from './average-precision';
import { chooseOperatingPoint, figuresAt } from './operating-points';

const truth = (index: number) => ({ x1: index * 20, y1: 0, x2: index * 20 + 10, y2: 10 });
/** A prediction on labelled box `index`, or (index < 0) on empty ground. */
const guess = (index: number, score: number) =>
  index >= 0 ? { ...truth(index), score } : { x1: 500, y1: 500, x2: 510, y2: 510, score };

// Ten labelled boxes. Found: four at 0.9, 0.8, 0.7, 0.6, two at 0.3 and 0.2; false boxes at
// 0.65, 0.55, 0.5, 0.45, 0.35, 0.33, 0.25, 0.22, 0.15, 0.1.
const images: ImageBoxes[] = [
  {
    labelled: Array.from({ length: 10 }, (_, index) => truth(index)),
    predicted: [
      guess(0, 0.9),
      guess(1, 0.8),
      guess(2, 0.7),
      guess(3, 0.6),
      guess(4, 0.3),
      guess(5, 0.2),
      ...[0.65, 0.55, 0.5, 0.45, 0.35, 0.33, 0.25, 0.22, 0.15, 0.1].map((score) =>
        guess(-1, score),
      ),
    ],
  },
];

describe('chooseOperatingPoint', () => {
  it('takes the lowest threshold at the precision goal for likely, the highest at the recall goal for possible', () => {
    const point = chooseOperatingPoint(images, {
      likelyPrecision: 0.5,
      possibleRecall: 0.5,
      lowestShown: 0.05,
    });
    // From 0.45 to 0.36: 4 found of 8 boxes (0.5); from 0.35: 4 of 9; below, never half again.
    expect(point.likely).toBe(0.36);
    expect(point.at_likely).toEqual({ recall: 0.4, precision: 0.5 });
    // Five of ten first found from 0.3, among eleven boxes.
    expect(point.possible).toBe(0.3);
    expect(point.recall_goal_met).toBe(true);
    expect(point.at_possible).toEqual({ recall: 0.5, precision: 0.455 });
    expect(figuresAt(images, 0.3)).toEqual(point.at_possible);
  });

  it('says when the recall goal is out of reach and shows from the lowest score allowed', () => {
    const point = chooseOperatingPoint(images, {
      likelyPrecision: 0.5,
      possibleRecall: 0.9,
      lowestShown: 0.15,
    });
    expect(point.possible).toBe(0.15);
    expect(point.recall_goal_met).toBe(false);
    expect(point.at_possible.recall).toBe(0.6);
  });

  it('has no likely tier when no threshold is precise enough, and never starts possible above likely', () => {
    const falseFirst: ImageBoxes[] = [
      { labelled: [truth(0)], predicted: [guess(-1, 0.9), guess(0, 0.5)] },
    ];
    expect(
      chooseOperatingPoint(falseFirst, {
        likelyPrecision: 0.95,
        possibleRecall: 0.6,
        lowestShown: 0.05,
      }),
    ).toMatchObject({ likely: null, at_likely: null, possible: 0.5 });
    const point = chooseOperatingPoint(images, {
      likelyPrecision: 0.5,
      possibleRecall: 0.1,
      lowestShown: 0.05,
    });
    // Recall 0.1 is reached from 0.9, but likely starts at 0.36: possible starts there too.
    expect(point.possible).toBe(0.36);
  });
});

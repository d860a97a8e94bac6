import { describe, expect, it } from 'vitest';
import type { Candidate } from './decode';
import { intersectionOverUnion, maxDetections, nonMaximumSuppression } from './nms';

const box = (x1: number, y1: number, x2: number, y2: number, score: number, classIndex = 0) => ({
  x1,
  y1,
  x2,
  y2,
  score,
  classIndex,
});

describe('intersectionOverUnion', () => {
  it.each([
    { name: 'identical', a: box(0, 0, 10, 10, 1), b: box(0, 0, 10, 10, 1), iou: 1 },
    { name: 'apart', a: box(0, 0, 10, 10, 1), b: box(20, 20, 30, 30, 1), iou: 0 },
    { name: 'touching edges', a: box(0, 0, 10, 10, 1), b: box(10, 0, 20, 10, 1), iou: 0 },
    { name: 'half overlap', a: box(0, 0, 10, 10, 1), b: box(5, 0, 15, 10, 1), iou: 50 / 150 },
    { name: 'one inside the other', a: box(0, 0, 10, 10, 1), b: box(0, 0, 5, 5, 1), iou: 0.25 },
    { name: 'empty boxes', a: box(0, 0, 0, 0, 1), b: box(0, 0, 0, 0, 1), iou: 0 },
  ])('$name', ({ a, b, iou }) => {
    expect(intersectionOverUnion(a, b)).toBeCloseTo(iou, 10);
  });
});

describe('nonMaximumSuppression', () => {
  it.each<{ name: string; input: Candidate[]; iou: number; kept: number[] }>([
    {
      name: 'keeps the better of two overlapping boxes of one class',
      input: [box(0, 0, 10, 10, 0.6), box(1, 1, 11, 11, 0.9)],
      iou: 0.45,
      kept: [0.9],
    },
    {
      name: 'keeps overlapping boxes of different classes',
      input: [box(0, 0, 10, 10, 0.6, 0), box(1, 1, 11, 11, 0.9, 1)],
      iou: 0.45,
      kept: [0.9, 0.6],
    },
    {
      name: 'keeps a box overlapping exactly at the threshold',
      input: [box(0, 0, 10, 10, 0.9), box(5, 0, 15, 10, 0.8)],
      iou: 50 / 150,
      kept: [0.9, 0.8],
    },
    {
      name: 'drops a box overlapping just above the threshold',
      input: [box(0, 0, 10, 10, 0.9), box(5, 0, 15, 10, 0.8)],
      iou: 0.33,
      kept: [0.9],
    },
    {
      name: 'a suppressed box suppresses nothing',
      input: [box(0, 0, 10, 10, 0.9), box(4, 0, 14, 10, 0.8), box(8, 0, 18, 10, 0.7)],
      iou: 0.3,
      kept: [0.9, 0.7],
    },
    { name: 'nothing in, nothing out', input: [], iou: 0.45, kept: [] },
  ])('$name', ({ input, iou, kept }) => {
    expect(nonMaximumSuppression(input, iou).map((candidate) => candidate.score)).toEqual(kept);
  });

  it(`keeps at most ${String(maxDetections)} boxes, the best`, () => {
    const many = Array.from({ length: maxDetections + 5 }, (_, index) =>
      box(index * 20, 0, index * 20 + 10, 10, index / 1000),
    );
    const kept = nonMaximumSuppression(many, 0.45);
    expect(kept).toHaveLength(maxDetections);
    expect(Math.min(...kept.map((candidate) => candidate.score))).toBeCloseTo(5 / 1000, 10);
  });
});

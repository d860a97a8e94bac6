import { describe, expect, it } from 'vitest';
import type { ReviewFinding } from '@dental/contracts';
import type { StoredReviewFinding } from '#api/db/schema';
import { findingErrors, type JudgedImage } from './review-findings';
import { dotaRow, teachingFindings, yoloRow } from './training-set';

const result: JudgedImage = { photo: null, width: 100, height: 50, aiBoxes: 2 };
const finding = (fields: Partial<ReviewFinding>): ReviewFinding => ({
  box: [10, 10, 20, 20],
  label: 'Cavity',
  verdict: 'confirmed',
  ai_box: 0,
  photo: null,
  ...fields,
});

describe('findingErrors', () => {
  it.each<[string, ReviewFinding[], string[]]>([
    [
      'an AI box confirmed, one rejected, one drawn',
      [
        finding({}),
        finding({ verdict: 'rejected', ai_box: 1 }),
        finding({ verdict: 'added', ai_box: null }),
      ],
      [],
    ],
    ['a box right to the image’s edge', [finding({ box: [0, 0, 100, 50] })], []],
    ['a box past the right edge', [finding({ box: [90, 0, 101, 10] })], ['findings.0.box']],
    ['a box past the bottom edge', [finding({ box: [0, 40, 10, 51] })], ['findings.0.box']],
    ['an AI box that does not exist', [finding({ ai_box: 2 })], ['findings.0.ai_box']],
    [
      'an AI box judged twice',
      [finding({}), finding({ verdict: 'rejected' })],
      ['findings.1.ai_box'],
    ],
    ['a confirmation naming no AI box', [finding({ ai_box: null })], ['findings.0.ai_box']],
    ['a drawn box naming an AI box', [finding({ verdict: 'added' })], ['findings.0.ai_box']],
    [
      'a box on a photo not in the review',
      [finding({ photo: '00000000-0000-4000-8000-000000000000' })],
      ['findings.0.photo'],
    ],
  ])('%s', (_case, findings, fields) => {
    expect(Object.keys(findingErrors(findings, [result]))).toEqual(fields);
  });

  it('judges the AI boxes of each image apart', () => {
    const photos: JudgedImage[] = [
      { photo: 'a', width: 10, height: 10, aiBoxes: 0 },
      { photo: 'b', width: 10, height: 10, aiBoxes: 0 },
    ];
    const drawn = (photo: string) =>
      finding({ photo, verdict: 'added', ai_box: null, box: [1, 1, 5, 5] });
    expect(findingErrors([drawn('a'), drawn('b')], photos)).toEqual({});
  });
});

describe('the data set’s boxes', () => {
  const stored = (
    verdict: StoredReviewFinding['verdict'],
    photoId: string | null = null,
  ): StoredReviewFinding => ({
    photoId,
    box: [10, 10, 30, 20],
    label: 'Cavity',
    verdict,
    aiBox: verdict === 'added' ? null : 0,
  });

  it('teaches with the confirmed and drawn boxes of the image, never the rejected', () => {
    const findings = [
      stored('confirmed'),
      stored('rejected'),
      stored('added'),
      stored('added', 'p'),
    ];
    expect(teachingFindings(findings, null).map((row) => row.verdict)).toEqual([
      'confirmed',
      'added',
    ]);
    expect(teachingFindings(findings, 'p')).toHaveLength(1);
  });

  it('writes YOLO rows normalised to the image and DOTA rows in pixels', () => {
    expect(yoloRow(0, [10, 10, 30, 20], { width: 40, height: 40 })).toBe('0 0.5 0.375 0.5 0.25');
    expect(dotaRow('Cavity', [10, 10, 30, 20])).toBe('10 10 30 10 30 20 10 20 Cavity 0');
  });
});

import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '#api/repo-root';
import { ShippedModelFigures } from './model-figures';

const shipped = new ShippedModelFigures(path.join(repoRoot, 'models'));

describe('ShippedModelFigures', () => {
  it('reads a shipped model’s certainty threshold and as-shipped figures from its metrics file', () => {
    const recorded = shipped.of('dental-xray-416', 'caries', 'xray');
    expect(recorded?.likelyFrom).toBe(0.5);
    expect(recorded?.figures).toMatchObject({ images: 127, confidence: 0.25, match_iou: 0.5 });
    // Only the class 'Caries' reports on X-rays (models/shipped-models.json).
    expect(Object.keys(recorded?.figures.classes ?? {})).toEqual(['Cavity']);
    expect(recorded?.figures.classes.Cavity).toMatchObject({ boxes: 41, recall: 0.22 });
    expect(
      Object.keys(shipped.of('dental-xray-416', 'wisdom_teeth', 'xray')?.figures.classes ?? {}),
    ).toEqual(['Impacted Tooth']);
    expect(shipped.of('dental-photo-2class', 'caries', 'photo')?.figures).toMatchObject({
      images: 62,
      classes: { Cavity: { boxes: 298 } },
    });
  });

  it('has nothing for a model without a metrics file, or with a name that is not a file name', () => {
    expect(shipped.of('caries', 'caries', 'xray')).toBeUndefined();
    expect(shipped.of('dental-xray-4class', 'caries', 'xray')).toBeUndefined();
    expect(shipped.of('../models/dental-xray-416', 'caries', 'xray')).toBeUndefined();
    expect(
      new ShippedModelFigures(undefined).of('dental-xray-416', 'caries', 'xray'),
    ).toBeUndefined();
  });
});

import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '#api/repo-root';
import { ShippedModelFigures, tierOf } from './model-figures';

const shipped = new ShippedModelFigures(path.join(repoRoot, 'models'));

describe('ShippedModelFigures', () => {
  it('reads a shipped model’s tier thresholds and as-shipped figures from its metrics file', () => {
    const recorded = shipped.of('dental-xray-416', 'caries', 'xray');
    expect(recorded).toMatchObject({ images: 127, nms_iou: 0.45, match_iou: 0.5 });
    // Only the class 'Caries' reports on X-rays (models/shipped-models.json).
    expect(Object.keys(recorded?.classes ?? {})).toEqual(['Cavity']);
    expect(recorded?.classes.Cavity).toMatchObject({
      boxes: 41,
      possible_from: 0.16,
      likely_from: 0.2,
    });
    expect(
      Object.keys(shipped.of('dental-xray-416', 'wisdom_teeth', 'xray')?.classes ?? {}),
    ).toEqual(['Impacted Tooth']);
    expect(shipped.of('dental-photo-2class', 'caries', 'photo')).toMatchObject({
      images: 62,
      classes: { Cavity: { boxes: 298 } },
    });
  });

  it('tiers a box by its own class’s thresholds', () => {
    const recorded = shipped.of('dental-xray-416', 'caries', 'xray');
    expect(tierOf({ label: 'Cavity', confidence: 0.2 }, recorded)).toBe('likely');
    expect(tierOf({ label: 'Cavity', confidence: 0.19 }, recorded)).toBe('possible');
    expect(tierOf({ label: 'Implant', confidence: 0.9 }, recorded)).toBeNull();
    expect(tierOf({ label: 'Cavity', confidence: 0.9 }, undefined)).toBeNull();
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

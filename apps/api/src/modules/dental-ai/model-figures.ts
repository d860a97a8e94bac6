import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { DentalAiType, ImageKind, ModelFigures, Tier } from '@dental/contracts';
import { slotOf } from '#api/adapters/detector/detector';

interface MetricsFile {
  product?: ModelFigures;
}

/**
 * Reads `<model>.metrics.json` of the shipped models (models/), once per model: each class's
 * tier thresholds and the figures measured through the product's pipeline
 * (docs/decisions/dental-ai-in-the-record.md, dental-ai-operating-points.md). A model configured
 * on the server has no such file here and gets none, so no words are invented for it.
 */
export class ShippedModelFigures {
  private readonly cache = new Map<string, MetricsFile | undefined>();
  private readonly reported: Partial<Record<string, { classes: string[] }>>;

  constructor(private readonly modelsDir: string | undefined) {
    const shipped =
      modelsDir === undefined ? undefined : path.join(modelsDir, 'shipped-models.json');
    this.reported =
      shipped !== undefined && existsSync(shipped)
        ? (JSON.parse(readFileSync(shipped, 'utf8')) as typeof this.reported)
        : {};
  }

  /** As measured by `npm run eval:dental-ai -- --write`, only the classes the type reports. */
  of(modelName: string, type: DentalAiType, kind: ImageKind): ModelFigures | undefined {
    const measured = this.metrics(modelName)?.product;
    if (measured === undefined) return undefined;
    const classes = this.reported[slotOf(type, kind)]?.classes ?? [];
    return {
      ...measured,
      classes: Object.fromEntries(
        Object.entries(measured.classes).filter(([name]) => classes.includes(name)),
      ),
    };
  }

  private metrics(modelName: string): MetricsFile | undefined {
    if (!this.cache.has(modelName)) {
      const file =
        this.modelsDir === undefined || !/^[\w.-]+$/.test(modelName)
          ? undefined
          : path.join(this.modelsDir, `${modelName}.metrics.json`);
      this.cache.set(
        modelName,
        file !== undefined && existsSync(file)
          ? (JSON.parse(readFileSync(file, 'utf8')) as MetricsFile)
          : undefined,
      );
    }
    return this.cache.get(modelName);
  }
}

/** A box's tier by its class's thresholds; null without recorded figures for its class. */
export function tierOf(
  box: { label: string; confidence: number },
  figures: ModelFigures | undefined,
): Tier | null {
  const point = figures?.classes[box.label];
  if (point === undefined) return null;
  return point.likely_from !== null && box.confidence >= point.likely_from ? 'likely' : 'possible';
}

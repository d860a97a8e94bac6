import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { DentalAiType, ImageKind, ModelFigures } from '@dental/contracts';
import { slotOf } from '#api/adapters/detector/detector';

/** What a shipped model's metrics file adds to its results (docs/decisions/dental-ai-in-the-record.md). */
export interface RecordedFigures {
  /** The score from which a box is 'likely'. */
  likelyFrom: number;
  /** As measured by `npm run eval:dental-ai --write`, only the classes the type reports. */
  figures: ModelFigures;
}

interface MetricsFile {
  certainty?: { likely: number };
  product?: ModelFigures;
}

/**
 * Reads `<model>.metrics.json` of the shipped models (models/), once per model: its certainty
 * threshold and the figures measured through the product's pipeline. A model configured on the
 * server has no such file here and gets neither, so no words are invented for it.
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

  of(modelName: string, type: DentalAiType, kind: ImageKind): RecordedFigures | undefined {
    const metrics = this.metrics(modelName);
    if (metrics?.certainty === undefined || metrics.product === undefined) return undefined;
    const classes = this.reported[slotOf(type, kind)]?.classes ?? [];
    return {
      likelyFrom: metrics.certainty.likely,
      figures: {
        ...metrics.product,
        classes: Object.fromEntries(
          Object.entries(metrics.product.classes).filter(([name]) => classes.includes(name)),
        ),
      },
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

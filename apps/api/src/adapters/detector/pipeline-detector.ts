import type { DentalAiType } from '@dental/contracts';
import { decodeOutput } from './decode';
import {
  DetectionFailed,
  DetectorUnavailable,
  type DetectionOutcome,
  type Detector,
  type LoadedModels,
} from './detector';
import type { Inference } from './inference';
import { letterboxImage, toImagePixels } from './letterbox';
import type { ModelSource, ModelSpec } from './model-spec';
import { loadModelSpec } from './model-spec';
import { nonMaximumSuppression } from './nms';

export interface Thresholds {
  confidence: number;
  iou: number;
}

/** Box corners are reported to a tenth of a pixel. */
const roundTenth = (value: number) => Math.round(value * 10) / 10;

/**
 * Letterbox → inference → decoding → class-aware NMS → boxes in the original image's pixels. The
 * same pipeline serves local and remote inference; only `inference` differs.
 */
export class PipelineDetector implements Detector {
  private models: Partial<Record<DentalAiType, ModelSpec>> = {};

  constructor(
    private readonly findSources: () => Promise<Partial<Record<DentalAiType, ModelSource>>>,
    private readonly inference: Inference,
    private readonly thresholds: Thresholds,
    /** Told how long each model run took (metrics). */
    private readonly observeInference: (type: DentalAiType, seconds: number) => void = () =>
      undefined,
  ) {}

  async load(): Promise<LoadedModels> {
    const sources = await this.findSources();
    const loaded: Partial<Record<DentalAiType, ModelSpec>> = {};
    for (const [type, source] of Object.entries(sources) as [DentalAiType, ModelSource][]) {
      try {
        loaded[type] = await loadModelSpec(source);
      } catch (error) {
        throw new Error(`The ${type} model ${source.path} cannot be used: ${String(error)}`, {
          cause: error,
        });
      }
    }
    this.models = loaded;
    return Object.fromEntries(
      Object.entries(loaded).map(([type, { name, version, path }]) => [
        type,
        { name, version, path },
      ]),
    );
  }

  /** The loaded model of each type, for logs and the evaluation script. */
  modelOf(type: DentalAiType): ModelSpec | undefined {
    return this.models[type];
  }

  available(type: DentalAiType): boolean {
    return this.models[type] !== undefined;
  }

  async detect(type: DentalAiType, image: Uint8Array): Promise<DetectionOutcome> {
    const model = this.models[type];
    if (model === undefined) throw new DetectorUnavailable(type);
    const { tensor, geometry } = await letterboxImage(image, model.size);
    const started = performance.now();
    const output = await this.inference.run(model, tensor);
    this.observeInference(type, (performance.now() - started) / 1000);
    let kept;
    try {
      const candidates = decodeOutput(output.data, output.dims, {
        classCount: model.classNames.length,
        confidence: this.thresholds.confidence,
        ...(model.reportedClasses === undefined ? {} : { classes: model.reportedClasses }),
      });
      kept = nonMaximumSuppression(candidates, this.thresholds.iou);
    } catch (error) {
      throw new DetectionFailed(`The output of ${model.name} cannot be read.`, { cause: error });
    }
    return {
      width: geometry.width,
      height: geometry.height,
      detections: kept.map((candidate) => {
        const box = toImagePixels(candidate, geometry);
        return {
          xmin: roundTenth(box.x1),
          ymin: roundTenth(box.y1),
          xmax: roundTenth(box.x2),
          ymax: roundTenth(box.y2),
          label: model.classNames[candidate.classIndex] ?? String(candidate.classIndex),
          confidence: Math.min(1, Math.max(0, candidate.score)),
        };
      }),
      model: { name: model.name, version: model.version },
    };
  }

  ping(): Promise<void> {
    return this.inference.ping(Object.values(this.models));
  }

  close(): Promise<void> {
    return this.inference.close();
  }
}

import { dentalAiImageKinds, type DentalAiType, type ImageKind } from '@dental/contracts';
import { decodeOutput } from './decode';
import {
  DetectionFailed,
  DetectorUnavailable,
  slotOf,
  WrongImageKind,
  type DetectionOutcome,
  type Detector,
  type LoadedModels,
  type PreparedDetection,
} from './detector';
import type { ModelSlot } from '#api/config';
import type { RawRgbImage } from '#api/lib/raw-image';
import { markStage } from '#api/lib/stage-marks';
import type { Inference } from './inference';
import { decodeImage, imageKindOfPixels, letterboxImage, toImagePixels } from './letterbox';
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
 * Decoding → the image's kind (photo or X-ray) and so its model → letterbox → inference →
 * decoding → class-aware NMS → boxes in the original image's pixels. The same pipeline serves
 * local and remote inference; only `inference` differs.
 */
export class PipelineDetector implements Detector {
  private models: Partial<Record<ModelSlot, ModelSpec>> = {};

  constructor(
    private readonly findSources: () => Promise<Partial<Record<ModelSlot, ModelSource>>>,
    private readonly inference: Inference,
    private readonly thresholds: Thresholds,
    /** Told how long each model run took (metrics). */
    private readonly observeInference: (
      type: DentalAiType,
      kind: ImageKind,
      seconds: number,
    ) => void = () => undefined,
  ) {}

  async load(): Promise<LoadedModels> {
    const sources = await this.findSources();
    const loaded: Partial<Record<ModelSlot, ModelSpec>> = {};
    for (const [slot, source] of Object.entries(sources) as [ModelSlot, ModelSource][]) {
      try {
        loaded[slot] = await loadModelSpec(source);
      } catch (error) {
        throw new Error(`The ${slot} model ${source.path} cannot be used: ${String(error)}`, {
          cause: error,
        });
      }
    }
    this.models = loaded;
    return Object.fromEntries(
      Object.entries(loaded).map(([slot, { name, version, path }]) => [
        slot,
        { name, version, path },
      ]),
    );
  }

  /** The loaded model of each slot, for logs and the evaluation script. */
  modelOf(slot: ModelSlot): ModelSpec | undefined {
    return this.models[slot];
  }

  imageKinds(type: DentalAiType): ImageKind[] {
    return dentalAiImageKinds[type].filter((kind) => this.models[slotOf(type, kind)] !== undefined);
  }

  async detect(
    type: DentalAiType,
    image: Uint8Array | RawRgbImage,
    memberKind?: ImageKind,
  ): Promise<DetectionOutcome> {
    return this.run(await this.prepare(type, image, memberKind));
  }

  async prepare(
    type: DentalAiType,
    image: Uint8Array | RawRgbImage,
    memberKind?: ImageKind,
  ): Promise<PreparedDetection> {
    if (this.imageKinds(type).length === 0) throw new DetectorUnavailable(type);
    const decoded = image instanceof Uint8Array ? await decodeImage(image) : image;
    const kind = memberKind ?? (await imageKindOfPixels(decoded));
    markStage('kind');
    if (!dentalAiImageKinds[type].includes(kind)) throw new WrongImageKind(type, kind);
    const model = this.models[slotOf(type, kind)];
    if (model === undefined) throw new DetectorUnavailable(type, kind);
    const input = await letterboxImage(decoded, model.size);
    markStage('letterbox');
    return {
      ...input,
      type,
      model,
      imageKind: kind,
      imageKindSource: memberKind === undefined ? 'pixels' : 'member',
    };
  }

  async run({
    type,
    model,
    tensor,
    geometry,
    imageKind,
    imageKindSource,
  }: PreparedDetection): Promise<DetectionOutcome> {
    const started = performance.now();
    const output = await this.inference.run(model, tensor);
    this.observeInference(type, imageKind, (performance.now() - started) / 1000);
    markStage('inference');
    let kept;
    try {
      const shownFrom = (classIndex: number) =>
        model.shownFrom?.get(classIndex) ?? this.thresholds.confidence;
      const candidates = decodeOutput(output.data, output.dims, {
        classCount: model.classNames.length,
        confidence: Math.min(this.thresholds.confidence, ...(model.shownFrom?.values() ?? [])),
        ...(model.reportedClasses === undefined ? {} : { classes: model.reportedClasses }),
      });
      // Class-aware NMS takes boxes best first, so a box under its class's threshold never
      // suppresses one above it: dropping it afterwards keeps the same boxes as before.
      kept = nonMaximumSuppression(candidates, this.thresholds.iou).filter(
        (candidate) => candidate.score >= shownFrom(candidate.classIndex),
      );
    } catch (error) {
      throw new DetectionFailed(`The output of ${model.name} cannot be read.`, { cause: error });
    }
    return {
      width: geometry.width,
      height: geometry.height,
      detections: kept
        .map((candidate) => {
          const box = toImagePixels(candidate, geometry);
          return {
            xmin: roundTenth(box.x1),
            ymin: roundTenth(box.y1),
            xmax: roundTenth(box.x2),
            ymax: roundTenth(box.y2),
            label: model.classNames[candidate.classIndex] ?? String(candidate.classIndex),
            confidence: Math.min(1, Math.max(0, candidate.score)),
          };
        })
        // A box in the letterbox's padding has no area once clipped to the image: nothing to
        // show, and the legend would count it.
        .filter((box) => box.xmin < box.xmax && box.ymin < box.ymax),
      imageKind,
      imageKindSource,
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

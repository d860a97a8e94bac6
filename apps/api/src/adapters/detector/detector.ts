import {
  dentalAiImageKinds,
  dentalAiTypes,
  type DentalAiType,
  type ImageKind,
} from '@dental/contracts';
import type { ModelSlot } from '#api/config';
import type { RawRgbImage } from '#api/lib/raw-image';
import type { ModelInput } from './letterbox';
import type { ModelSpec } from './model-spec';

/** One detected object, in the pixels of the image after its EXIF orientation is applied. */
export interface Detection {
  xmin: number;
  ymin: number;
  xmax: number;
  ymax: number;
  label: string;
  /** The model's score for this box, 0 to 1. */
  confidence: number;
}

export interface DetectionOutcome {
  /** Size of the image the boxes refer to (EXIF orientation applied). */
  width: number;
  height: number;
  detections: Detection[];
  /** What the image was treated as, and whether the member said so or its pixels did. */
  imageKind: ImageKind;
  imageKindSource: 'member' | 'pixels';
  model: { name: string; version: string };
}

export function slotOf(type: DentalAiType, kind: ImageKind): ModelSlot {
  return (kind === 'xray' ? type : `${type}_${kind}`) as ModelSlot;
}

/** Every slot, in the order of the types and their kinds. */
export const modelSlots: readonly ModelSlot[] = dentalAiTypes.flatMap((type) =>
  dentalAiImageKinds[type].map((kind) => slotOf(type, kind)),
);

/** An image read and letterboxed for the model of its kind, ready to run (`Detector.prepare`). */
export interface PreparedDetection extends ModelInput {
  type: DentalAiType;
  imageKind: ImageKind;
  imageKindSource: DetectionOutcome['imageKindSource'];
  model: ModelSpec;
}

/** The model file serving each slot that has one. */
export type LoadedModels = Partial<
  Record<ModelSlot, { name: string; version: string; path: string }>
>;

/** Thrown when no model serves a detection type (for this kind of image) on this server (the
 *  API answers 503). */
export class DetectorUnavailable extends Error {
  override name = 'DetectorUnavailable';
  constructor(
    readonly type: DentalAiType,
    readonly kind?: ImageKind,
  ) {
    super(
      `No detection model is configured for ${kind === undefined ? type : slotOf(type, kind)}.`,
    );
  }
}

/** Thrown when a type cannot read this kind of image at all: wisdom teeth on a photo (422). */
export class WrongImageKind extends Error {
  override name = 'WrongImageKind';
  constructor(
    readonly type: DentalAiType,
    readonly kind: ImageKind,
  ) {
    super(`${type} detection does not read ${kind} images.`);
  }
}

/** Thrown when a model could not be run (a remote server down, a broken model file). */
export class DetectionFailed extends Error {
  override name = 'DetectionFailed';
}

/** Runs Dental AI detections: locally with ONNX Runtime, or on a KServe v2 / Triton server. */
export interface Detector {
  /** Reads every model's class names and input size; throws naming a file that cannot be used.
   *  Answers which model serves each type, for the start-up log. */
  load(): Promise<LoadedModels>;
  /** The image kinds this type has a model for; empty when the type cannot run here. */
  imageKinds(type: DentalAiType): ImageKind[];
  /** Detects in an image (JPEG, PNG or WebP bytes, or pixels already decoded upright) with the
   *  model for its kind: the member's `kind` when given, else the kind its pixels show. Throws
   *  WrongImageKind, DetectorUnavailable, or DetectionFailed when the model could not be run. */
  detect(
    type: DentalAiType,
    image: Uint8Array | RawRgbImage,
    kind?: ImageKind,
  ): Promise<DetectionOutcome>;
  /** `detect`'s first half: the kind, its model and the model's input, so that a caller can
   *  start other work only once the image is ready for the model. Throws as `detect` does. */
  prepare(
    type: DentalAiType,
    image: Uint8Array | RawRgbImage,
    kind?: ImageKind,
  ): Promise<PreparedDetection>;
  /** `detect`'s second half: runs the model on a prepared input, once. Throws DetectionFailed
   *  when the model could not be run. */
  run(prepared: PreparedDetection): Promise<DetectionOutcome>;
  /** Throws when a loaded model could not be run now (readiness probe). */
  ping(): Promise<void>;
  /** Stops the worker threads; pending detections finish first. */
  close(): Promise<void>;
}

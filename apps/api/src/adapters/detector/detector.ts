import type { DentalAiType } from '@dental/contracts';

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
  model: { name: string; version: string };
}

/** The model file serving each type that has one. */
export type LoadedModels = Partial<
  Record<DentalAiType, { name: string; version: string; path: string }>
>;

/** Thrown when no model serves a detection type on this server (the API answers 503). */
export class DetectorUnavailable extends Error {
  override name = 'DetectorUnavailable';
  constructor(readonly type: DentalAiType) {
    super(`No detection model is configured for ${type}.`);
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
  /** Whether a model serves this type. */
  available(type: DentalAiType): boolean;
  /** Detects in an encoded image (JPEG, PNG or WebP bytes); throws DetectorUnavailable, or
   *  DetectionFailed when the model could not be run. */
  detect(type: DentalAiType, image: Uint8Array): Promise<DetectionOutcome>;
  /** Throws when a loaded model could not be run now (readiness probe). */
  ping(): Promise<void>;
  /** Stops the worker threads; pending detections finish first. */
  close(): Promise<void>;
}

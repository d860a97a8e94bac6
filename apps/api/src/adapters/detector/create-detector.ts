import type { DentalAiType, ImageKind } from '@dental/contracts';
import type { DentalAiSettings } from '#api/config';
import { stderrLogger, type ErrorLogger } from '#api/logger';
import { LocalInference } from './local-inference';
import { findModelSources } from './model-spec';
import { PipelineDetector } from './pipeline-detector';
import { RemoteInference } from './remote-inference';

/** The detector the configuration asks for: a KServe v2 / Triton server when DENTAL_AI_ENDPOINT
 *  is set, else ONNX Runtime in worker threads. Call `load()` before use. */
export function createDetector(
  settings: DentalAiSettings,
  dataDir: string,
  observeInference?: (type: DentalAiType, kind: ImageKind, seconds: number) => void,
  log: ErrorLogger = stderrLogger,
): PipelineDetector {
  return new PipelineDetector(
    () => findModelSources(settings, dataDir),
    settings.endpoint === undefined
      ? new LocalInference(settings.threads, log)
      : new RemoteInference(settings.endpoint),
    { confidence: settings.confidence, iou: settings.iou },
    observeInference,
  );
}

import type { DentalAiType, ImageKind } from '@dental/contracts';
import type { DentalAiSettings } from '#api/config';
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
): PipelineDetector {
  return new PipelineDetector(
    () => findModelSources(settings, dataDir),
    settings.endpoint === undefined
      ? new LocalInference(settings.threads)
      : new RemoteInference(settings.endpoint),
    { confidence: settings.confidence, iou: settings.iou },
    observeInference,
  );
}

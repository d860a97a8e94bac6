import { availableParallelism } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { fraction, httpUrl, optional, positiveInt } from './fields';
import { repoRoot } from '../repo-root';

/** Dental AI models and inference (docs/decisions/dental-ai-model-loading.md). */
export const dentalAiEnv = z.object({
  DENTAL_AI_MODEL_CARIES: optional(z.string()),
  DENTAL_AI_MODEL_CARIES_PHOTO: optional(z.string()),
  DENTAL_AI_MODEL_WISDOM_TEETH: optional(z.string()),
  DENTAL_AI_ENDPOINT: optional(httpUrl('DENTAL_AI_ENDPOINT')),
  DENTAL_AI_CONFIDENCE: optional(fraction('DENTAL_AI_CONFIDENCE')),
  DENTAL_AI_IOU: optional(fraction('DENTAL_AI_IOU')),
  DENTAL_AI_THREADS: optional(positiveInt('DENTAL_AI_THREADS')),
  DENTAL_AI_SHIPPED_MODELS: optional(
    z.enum(['on', 'off'], 'DENTAL_AI_SHIPPED_MODELS must be on or off.'),
  ),
});

/**
 * One model per type and image kind: `caries` and `wisdom_teeth` read X-rays (the names the
 * settings and files had before photos), `caries_photo` reads colour photos. Configuration owns
 * the list because each slot has its own DENTAL_AI_MODEL_* variable; the detector serves them.
 */
export type ModelSlot = 'caries' | 'caries_photo' | 'wisdom_teeth';

export interface DentalAiSection {
  dentalAi: DentalAiSettings;
}

export interface DentalAiSettings {
  /** Configured model files per slot (`caries` and `wisdom_teeth` read X-rays, `caries_photo`
   *  colour photos); an unset slot falls back to `dataDir/models/{slot}.onnx`, then to the
   *  shipped model. */
  models: Partial<Record<ModelSlot, string>>;
  /** A KServe v2 / Triton server that runs the models instead of this process. */
  endpoint: string | undefined;
  /** Boxes scoring below this are dropped. */
  confidence: number;
  /** Class-aware non-maximum suppression drops a box overlapping a better one by more than this. */
  iou: number;
  /** Inference worker threads. */
  threads: number;
  /** The models this repository ships (models/, docs/decisions/dental-ai-shipped-model.md), the
   *  last fallback; unset when DENTAL_AI_SHIPPED_MODELS=off. */
  shippedModelsDir: string | undefined;
}

export function parseDentalAi(vars: z.infer<typeof dentalAiEnv>): DentalAiSection {
  return {
    dentalAi: {
      models: {
        ...(vars.DENTAL_AI_MODEL_CARIES === undefined
          ? {}
          : { caries: path.resolve(vars.DENTAL_AI_MODEL_CARIES) }),
        ...(vars.DENTAL_AI_MODEL_CARIES_PHOTO === undefined
          ? {}
          : { caries_photo: path.resolve(vars.DENTAL_AI_MODEL_CARIES_PHOTO) }),
        ...(vars.DENTAL_AI_MODEL_WISDOM_TEETH === undefined
          ? {}
          : { wisdom_teeth: path.resolve(vars.DENTAL_AI_MODEL_WISDOM_TEETH) }),
      },
      endpoint: vars.DENTAL_AI_ENDPOINT?.replace(/\/+$/, ''),
      confidence: vars.DENTAL_AI_CONFIDENCE ?? 0.25,
      iou: vars.DENTAL_AI_IOU ?? 0.45,
      threads: vars.DENTAL_AI_THREADS ?? availableParallelism(),
      shippedModelsDir:
        vars.DENTAL_AI_SHIPPED_MODELS === 'off' ? undefined : path.join(repoRoot, 'models'),
    },
  };
}

import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { DentalAiSettings, ModelSlot } from '#api/config';
import { modelSlots } from './detector';
import { readClassNames } from './class-names';
import { readModelFacts } from './onnx-proto';

/** Where a slot's model file is, and which of its classes that slot reports. */
export interface ModelSource {
  path: string;
  /** Class names reported for this type; all of the model's classes when absent. */
  reportedClasses?: readonly string[];
  /** Per class name, the score from which a box is shown (its 'possible' operating point);
   *  the configured confidence for a class without one. */
  shownFrom?: Readonly<Record<string, number>>;
}

/** A model ready to run: its file, input, class names and identity. */
export interface ModelSpec {
  path: string;
  /** The file name without `.onnx`; also the model's name on a KServe v2 / Triton server. */
  name: string;
  /** The `version` metadata entry (if any) and the file's SHA-256, so a stored result names the
   *  exact model that made it. */
  version: string;
  inputName: string;
  /** The square input's side in pixels. */
  size: number;
  classNames: readonly string[];
  /** Indexes of the classes this type reports; all when absent. */
  reportedClasses?: ReadonlySet<number>;
  /** Per class index, the score from which a box is shown; see ModelSource. */
  shownFrom?: ReadonlyMap<number, number>;
}

/** `models/shipped-models.json`: which shipped model serves each slot, and which classes. */
type ShippedModels = Record<string, { model: string; classes: string[] } | undefined>;

/** The 'possible' operating point of each class of a shipped model, from its metrics file
 *  (docs/decisions/dental-ai-operating-points.md); none when the file has none. */
async function shownFromOf(modelPath: string): Promise<Record<string, number> | undefined> {
  const file = modelPath.replace(/\.onnx$/, '.metrics.json');
  if (!existsSync(file)) return undefined;
  const metrics = JSON.parse(await readFile(file, 'utf8')) as {
    operating_points?: Record<string, { possible: number }>;
  };
  if (metrics.operating_points === undefined) return undefined;
  return Object.fromEntries(
    Object.entries(metrics.operating_points).map(([name, point]) => [name, point.possible]),
  );
}

/**
 * The model file of every slot that has one: the configured file, else `dataDir/models/{slot}.onnx`,
 * else the shipped model named in `shipped-models.json`
 * (docs/decisions/dental-ai-shipped-model.md). A configured file must exist.
 */
export async function findModelSources(
  settings: DentalAiSettings,
  dataDir: string,
): Promise<Partial<Record<ModelSlot, ModelSource>>> {
  const shipped =
    settings.shippedModelsDir === undefined
      ? {}
      : (JSON.parse(
          await readFile(path.join(settings.shippedModelsDir, 'shipped-models.json'), 'utf8'),
        ) as ShippedModels);
  const sources: Partial<Record<ModelSlot, ModelSource>> = {};
  for (const slot of modelSlots) {
    const configured = settings.models[slot];
    const inDataDir = path.join(dataDir, 'models', `${slot}.onnx`);
    const fromShipped = shipped[slot];
    if (configured !== undefined) {
      if (!existsSync(configured)) {
        throw new Error(`The ${slot} model file ${configured} does not exist.`);
      }
      sources[slot] = { path: configured };
    } else if (existsSync(inDataDir)) {
      sources[slot] = { path: inDataDir };
    } else if (fromShipped !== undefined && settings.shippedModelsDir !== undefined) {
      const modelPath = path.join(settings.shippedModelsDir, fromShipped.model);
      const shownFrom = await shownFromOf(modelPath);
      sources[slot] = {
        path: modelPath,
        reportedClasses: fromShipped.classes,
        ...(shownFrom === undefined ? {} : { shownFrom }),
      };
    }
  }
  return sources;
}

/** Ultralytics' default input size when a model's input size is symbolic and unrecorded. */
const defaultInputSize = 640;

function inputSize(shape: readonly (number | undefined)[], metadata: ReadonlyMap<string, string>) {
  const [, channels, height, width] = shape;
  if (shape.length !== 4 || (channels !== undefined && channels !== 3)) {
    throw new Error(`The input must be [1, 3, H, W]; it is [${shape.join(', ')}].`);
  }
  if (height !== undefined && width !== undefined) {
    if (height !== width) throw new Error('The input must be square.');
    return height;
  }
  const recorded = /\d+/.exec(metadata.get('imgsz') ?? '');
  return recorded === null ? defaultInputSize : Number(recorded[0]);
}

/** Reads a model file's input and class names (`<name>.labels.json`, `labels.json`, metadata). */
export async function loadModelSpec(source: ModelSource): Promise<ModelSpec> {
  const bytes = await readFile(source.path);
  const facts = readModelFacts(bytes);
  const name = path.basename(source.path, '.onnx');
  const folder = path.dirname(source.path);
  const beside = path.join(folder, `${name}.labels.json`);
  const classNames =
    (await readClassNames(
      existsSync(beside) ? beside : path.join(folder, 'labels.json'),
      facts.metadata,
    )) ?? undefined;
  if (classNames === undefined) {
    throw new Error(
      `${source.path} has no class names: add labels.json or a names metadata entry.`,
    );
  }
  const spec: ModelSpec = {
    path: source.path,
    name,
    version: [
      facts.metadata.get('version'),
      `sha256:${createHash('sha256').update(bytes).digest('hex').slice(0, 12)}`,
    ]
      .filter((part) => part !== undefined)
      .join('+'),
    inputName: facts.inputName,
    size: inputSize(facts.inputShape, facts.metadata),
    classNames,
  };
  const indexOf = (label: string) => {
    const index = classNames.indexOf(label);
    if (index < 0) throw new Error(`${source.path} has no class ${label}.`);
    return index;
  };
  return {
    ...spec,
    ...(source.reportedClasses === undefined
      ? {}
      : { reportedClasses: new Set(source.reportedClasses.map(indexOf)) }),
    ...(source.shownFrom === undefined
      ? {}
      : {
          shownFrom: new Map(
            Object.entries(source.shownFrom).map(([label, score]) => [indexOf(label), score]),
          ),
        }),
  };
}

// The two data sets the shipped Dental AI models were trained on, as the evaluation
// (`npm run eval:dental-ai`) and the benchmarks read them: where their images and labels are,
// their split files, and each image's predictions beside its labels.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ImageKind } from '@dental/contracts';
import type { DetectionOutcome } from '../adapters/detector/detector';
import type { Box } from '../adapters/detector/letterbox';
import { LocalInference } from '../adapters/detector/local-inference';
import { PipelineDetector, type Thresholds } from '../adapters/detector/pipeline-detector';
import type { ModelSlot } from '../config';
import { repoRoot } from '../repo-root';
import type { ImageBoxes } from './average-precision';

export const datasetsDir = path.resolve(
  process.env.DENTAL_DATASETS ?? path.join(repoRoot, '../shared/datasets'),
);

export interface DataSet {
  kind: ImageKind;
  slot: ModelSlot;
  title: string;
  folder: string;
  model: string;
  splitFile: string;
  /** The labelled boxes of an image, in its pixels, with their class index. */
  labels: (imagePath: string, width: number, height: number) => (Box & { classIndex: number })[];
}

const rowsOf = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter((fields) => fields.length > 1);

export const xrayData: DataSet = {
  kind: 'xray',
  slot: 'caries',
  title: 'X-ray',
  folder: path.join(datasetsDir, 'dental-xray-4class'),
  model: 'dental-xray-416.onnx',
  splitFile: 'training/split.json',
  // YOLO rows: class cx cy w h, normalised.
  labels: (imagePath, width, height) =>
    rowsOf(imagePath.replace('/images/', '/labels/').replace(/\.jpg$/, '.txt')).map((fields) => {
      const [classIndex = 0, cx = 0, cy = 0, w = 0, h = 0] = fields.map(Number);
      return {
        classIndex,
        x1: (cx - w / 2) * width,
        y1: (cy - h / 2) * height,
        x2: (cx + w / 2) * width,
        y2: (cy + h / 2) * height,
      };
    }),
};

export const photoData: DataSet = {
  kind: 'photo',
  slot: 'caries_photo',
  title: 'Photo',
  folder: path.join(datasetsDir, 'dental-cavity-photos'),
  model: 'dental-photo-2class.onnx',
  splitFile: 'training/split-photos.json',
  // DOTA rows: four corners in pixels, then the class name (the box is their extent).
  labels: (imagePath) =>
    rowsOf(imagePath.replace('/images/', '/labelTxt/').replace(/\.jpg$/, '.txt')).map((fields) => {
      const corners = fields.slice(0, 8).map(Number);
      const xs = corners.filter((_, index) => index % 2 === 0);
      const ys = corners.filter((_, index) => index % 2 === 1);
      return {
        classIndex: fields[8] === 'cavity' ? 0 : 1,
        x1: Math.min(...xs),
        y1: Math.min(...ys),
        x2: Math.max(...xs),
        y2: Math.max(...ys),
      };
    }),
};

/** A data set's split file: its validation and test images. */
export function splitOf(dataSet: DataSet): { val: string[]; test: string[] } {
  return JSON.parse(readFileSync(path.join(repoRoot, dataSet.splitFile), 'utf8')) as {
    val: string[];
    test: string[];
  };
}

/** The class names of a data set's shipped model (`models/<name>.labels.json`). */
export function classNamesOf(dataSet: DataSet): string[] {
  return JSON.parse(
    readFileSync(
      path.join(repoRoot, 'models', dataSet.model.replace(/\.onnx$/, '.labels.json')),
      'utf8',
    ),
  ) as string[];
}

/**
 * A data set's model reporting one class, as the product reports Cavity alone for 'Caries':
 * each anchor's box then competes only within that class, so every class is measured the way
 * the product would report it.
 */
export function detectorFor(dataSet: DataSet, className: string, thresholds: Thresholds) {
  const source = {
    path: path.join(repoRoot, 'models', dataSet.model),
    reportedClasses: [className],
  };
  return new PipelineDetector(
    () => Promise.resolve({ [dataSet.slot]: source }),
    new LocalInference(2),
    thresholds,
  );
}

/** Each image's predictions of one class by `detect` beside its labelled boxes of that class,
 *  and the time `detect` took in all. */
export async function predictionsOn(
  dataSet: DataSet,
  name: string,
  images: readonly string[],
  detect: (image: Uint8Array) => Promise<DetectionOutcome>,
): Promise<{ boxes: ImageBoxes[]; milliseconds: number }> {
  const classNames = classNamesOf(dataSet);
  const boxes: ImageBoxes[] = [];
  let milliseconds = 0;
  for (const image of images) {
    const imagePath = path.join(dataSet.folder, image);
    const bytes = readFileSync(imagePath);
    const started = performance.now();
    const outcome = await detect(bytes);
    milliseconds += performance.now() - started;
    boxes.push({
      predicted: outcome.detections.map((box) => ({
        x1: box.xmin,
        y1: box.ymin,
        x2: box.xmax,
        y2: box.ymax,
        score: box.confidence,
      })),
      labelled: dataSet
        .labels(imagePath, outcome.width, outcome.height)
        .filter((label) => classNames[label.classIndex] === name),
    });
  }
  return { boxes, milliseconds };
}

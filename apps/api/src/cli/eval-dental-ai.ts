// `npm run eval:dental-ai`: per-class AP50 and AP50-95 of the shipped model on the held-out test
// split of training/split.json, measured through the API's own pipeline (sharp letterbox, ONNX
// Runtime in worker threads, decoding, NMS), next to the training script's figures.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LocalInference } from '../adapters/detector/local-inference';
import { PipelineDetector } from '../adapters/detector/pipeline-detector';
import { averagePrecisions, type ImageBoxes } from './average-precision';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const dataset = path.resolve(
  process.env.DENTAL_XRAY_DATASET ?? path.join(repoRoot, '../shared/datasets/dental-xray-4class'),
);
const modelPath = path.join(repoRoot, 'models/dental-xray-4class.onnx');

interface TrainingMetrics {
  conf_threshold: number;
  nms_iou: number;
  classes: Record<string, { ap50: number; ap50_95: number; boxes: number }>;
}

if (!existsSync(dataset)) {
  console.error(`The data set is not at ${dataset}; set DENTAL_XRAY_DATASET to its folder.`);
  process.exit(2);
}
const trained = JSON.parse(
  readFileSync(modelPath.replace(/\.onnx$/, '.metrics.json'), 'utf8'),
) as TrainingMetrics;
const split = JSON.parse(readFileSync(path.join(repoRoot, 'training/split.json'), 'utf8')) as {
  test: string[];
};

// Every class of the model, at the training evaluation's thresholds.
const detector = new PipelineDetector(
  () => Promise.resolve({ caries: { path: modelPath } }),
  new LocalInference(2),
  { confidence: trained.conf_threshold, iou: trained.nms_iou },
);
await detector.load();
const classNames = detector.modelOf('caries')?.classNames ?? [];
const perClass = classNames.map((): ImageBoxes[] => []);

const started = performance.now();
for (const image of split.test) {
  const imagePath = path.join(dataset, image);
  const outcome = await detector.detect('caries', readFileSync(imagePath));
  const labelPath = imagePath.replace('/images/', '/labels/').replace(/\.jpg$/, '.txt');
  const labels = readFileSync(labelPath, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => line.trim().split(/\s+/).map(Number));
  classNames.forEach((name, classIndex) => {
    perClass[classIndex]?.push({
      predicted: outcome.detections
        .filter((box) => box.label === name)
        .map((box) => ({
          x1: box.xmin,
          y1: box.ymin,
          x2: box.xmax,
          y2: box.ymax,
          score: box.confidence,
        })),
      labelled: labels
        .filter(([label]) => label === classIndex)
        .map(([, cx = 0, cy = 0, w = 0, h = 0]) => ({
          x1: (cx - w / 2) * outcome.width,
          y1: (cy - h / 2) * outcome.height,
          x2: (cx + w / 2) * outcome.width,
          y2: (cy + h / 2) * outcome.height,
        })),
    });
  });
}
const seconds = (performance.now() - started) / 1000;
await detector.close();

const format = (value: number) => value.toFixed(3).padStart(8);
console.log(
  `${String(split.test.length)} held-out images in ${seconds.toFixed(1)} s (${((seconds * 1000) / split.test.length).toFixed(0)} ms each), confidence ${String(trained.conf_threshold)}, NMS IoU ${String(trained.nms_iou)}\n`,
);
console.log(
  `${'class'.padEnd(16)}${'boxes'.padStart(6)}${'AP50'.padStart(8)}${'AP50-95'.padStart(8)}   training: ${'AP50'.padStart(6)}${'AP50-95'.padStart(8)}`,
);
classNames.forEach((name, classIndex) => {
  const aps = averagePrecisions(perClass[classIndex] ?? []);
  const boxes = (perClass[classIndex] ?? []).reduce((sum, image) => sum + image.labelled.length, 0);
  const reference = trained.classes[name];
  console.log(
    `${name.padEnd(16)}${String(boxes).padStart(6)}${format(aps[0] ?? 0)}${format(aps.reduce((sum, ap) => sum + ap, 0) / aps.length)}             ${reference === undefined ? '' : `${format(reference.ap50).slice(2)}${format(reference.ap50_95)}`}`,
  );
});

// `npm run eval:dental-ai`: both shipped models on the held-out test splits of their data sets
// (training/split.json for X-rays, training/split-photos.json for photos), measured through the
// API's own pipeline (decoding, the kind rule, sharp letterbox, ONNX Runtime in worker threads,
// decoding, NMS). One table: per-class AP50 and AP50-95 (at the training evaluation's
// thresholds), recall at the product's own threshold and NMS, and the training script's figures;
// then how often the kind rule reads each data set's images as what they are. With `--write`,
// the as-shipped figures go into each model's metrics file (`product`), where the result screen
// reads them (docs/decisions/dental-ai-in-the-record.md).
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ImageKind, ModelFigures } from '@dental/contracts';
import { decodeImage, imageKindOfPixels, type Box } from '../adapters/detector/letterbox';
import { LocalInference } from '../adapters/detector/local-inference';
import { PipelineDetector, type Thresholds } from '../adapters/detector/pipeline-detector';
import { loadConfig, type ModelSlot } from '../config';
import { averagePrecisions, matchCounts, type ImageBoxes } from './average-precision';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const datasetsDir = path.resolve(
  process.env.DENTAL_DATASETS ?? path.join(repoRoot, '../shared/datasets'),
);

interface DataSet {
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

const xrayData: DataSet = {
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

const photoData: DataSet = {
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

const dataSets = [xrayData, photoData];

for (const dataSet of dataSets) {
  if (!existsSync(dataSet.folder)) {
    console.error(`The data set is not at ${dataSet.folder}; set DENTAL_DATASETS to its parent.`);
    process.exit(2);
  }
}

interface TrainingMetrics {
  conf_threshold: number;
  nms_iou: number;
  classes: Record<string, { ap50: number; ap50_95: number; boxes: number }>;
  /** The scores from which a box is called 'likely' (below: 'possible'). */
  certainty: { likely: number };
  product?: ModelFigures;
}

const write = process.argv.includes('--write');
const round = (value: number) => Math.round(value * 1000) / 1000;

const product = loadConfig({}).dentalAi;

/**
 * A data set's model reporting one class, as the product reports Cavity alone for 'Caries':
 * each anchor's box then competes only within that class, so every class is measured the way
 * the product would report it.
 */
function detectorFor(dataSet: DataSet, className: string, thresholds: Thresholds) {
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

const metricsFile = (dataSet: DataSet) =>
  path.join(repoRoot, 'models', dataSet.model.replace(/\.onnx$/, '.metrics.json'));

/** The training script's figures for a data set's model (models/<name>.metrics.json). */
const trainingMetrics = (dataSet: DataSet) =>
  JSON.parse(readFileSync(metricsFile(dataSet), 'utf8')) as TrainingMetrics;

const format = (value: number) => value.toFixed(3).padStart(8);
const header = `${'data set'.padEnd(9)}${'class'.padEnd(16)}${'images'.padStart(7)}${'boxes'.padStart(6)}${'AP50'.padStart(8)}${'AP50-95'.padStart(8)}${`recall@${String(product.confidence)}`.padStart(12)}   training: ${'AP50'.padStart(6)}${'AP50-95'.padStart(8)}`;
const rows: string[] = [];
const timings: string[] = [];

for (const dataSet of dataSets) {
  const trained = trainingMetrics(dataSet);
  const figures: ModelFigures = {
    measured_by: 'npm run eval:dental-ai',
    images: 0,
    confidence: product.confidence,
    nms_iou: product.iou,
    match_iou: 0.5,
    classes: {},
  };
  const split = JSON.parse(readFileSync(path.join(repoRoot, dataSet.splitFile), 'utf8')) as {
    test: string[];
  };
  const classNames = JSON.parse(
    readFileSync(
      path.join(repoRoot, 'models', dataSet.model.replace(/\.onnx$/, '.labels.json')),
      'utf8',
    ),
  ) as string[];
  for (const name of classNames) {
    // At the training evaluation's thresholds for AP; at the product's own for recall.
    const evaluation = detectorFor(dataSet, name, {
      confidence: trained.conf_threshold,
      iou: trained.nms_iou,
    });
    const asShipped = detectorFor(dataSet, name, {
      confidence: product.confidence,
      iou: product.iou,
    });
    await Promise.all([evaluation.load(), asShipped.load()]);
    figures.images = split.test.length;
    const scored: ImageBoxes[] = [];
    const shipped: ImageBoxes[] = [];
    let shippedMs = 0;
    for (const image of split.test) {
      const imagePath = path.join(dataSet.folder, image);
      const bytes = readFileSync(imagePath);
      // The data set's own kind: this measures the model; the routing is measured below.
      const outcome = await evaluation.detect('caries', bytes, dataSet.kind);
      const started = performance.now();
      const productOutcome = await asShipped.detect('caries', bytes, dataSet.kind);
      shippedMs += performance.now() - started;
      const labelled = dataSet
        .labels(imagePath, outcome.width, outcome.height)
        .filter((label) => classNames[label.classIndex] === name);
      const predicted = (detections: typeof outcome.detections) =>
        detections.map((box) => ({
          x1: box.xmin,
          y1: box.ymin,
          x2: box.xmax,
          y2: box.ymax,
          score: box.confidence,
        }));
      scored.push({ predicted: predicted(outcome.detections), labelled });
      shipped.push({ predicted: predicted(productOutcome.detections), labelled });
    }
    await Promise.all([evaluation.close(), asShipped.close()]);
    if (name === classNames[0]) {
      timings.push(
        `${dataSet.title}: ${String(split.test.length)} held-out images (${dataSet.splitFile}), ${(shippedMs / split.test.length).toFixed(0)} ms per detection as shipped`,
      );
    }
    const all = matchCounts(shipped);
    const likely = matchCounts(
      shipped.map((image) => ({
        ...image,
        predicted: image.predicted.filter((box) => box.score >= trained.certainty.likely),
      })),
    );
    figures.classes[name] = {
      boxes: all.labelled,
      recall: round(all.matched / Math.max(all.labelled, 1)),
      precision: round(all.matched / Math.max(all.predicted, 1)),
      likely_recall: round(likely.matched / Math.max(likely.labelled, 1)),
      likely_precision: round(likely.matched / Math.max(likely.predicted, 1)),
    };
    const aps = averagePrecisions(scored);
    const boxes = scored.reduce((sum, image) => sum + image.labelled.length, 0);
    const reference = trained.classes[name];
    rows.push(
      `${dataSet.title.padEnd(9)}${name.padEnd(16)}${String(split.test.length).padStart(7)}${String(boxes).padStart(6)}${format(aps[0] ?? 0)}${format(aps.reduce((sum, ap) => sum + ap, 0) / aps.length)}${format(figures.classes[name].recall).padStart(12)}             ${reference === undefined ? '' : `${format(reference.ap50).slice(2)}${format(reference.ap50_95)}`}`,
    );
  }
  if (write) {
    writeFileSync(
      metricsFile(dataSet),
      `${JSON.stringify({ ...trainingMetrics(dataSet), product: figures }, null, 2)}\n`,
    );
  }
}

/** How many of the images the kind rule reads as `expected`, after `change` to their pixels. */
async function routed(
  images: string[],
  expected: ImageKind,
  change: (pixels: Buffer) => Buffer = (pixels) => pixels,
): Promise<string> {
  let right = 0;
  for (const image of images) {
    const decoded = await decodeImage(readFileSync(image));
    if ((await imageKindOfPixels({ ...decoded, data: change(decoded.data) })) === expected) {
      right += 1;
    }
  }
  return `${String(right)} of ${String(images.length)} (${((100 * right) / images.length).toFixed(1)} %)`;
}

/** Every image of a data set's three exported folders. */
const everyImage = (dataSet: DataSet) =>
  ['train', 'valid', 'test'].flatMap((folder) =>
    [
      path.join(dataSet.folder, 'data', folder, 'images'),
      path.join(dataSet.folder, folder, 'images'),
    ]
      .filter((dir) => existsSync(dir))
      .flatMap((dir) => readdirSync(dir).map((name) => path.join(dir, name))),
  );

/** An X-ray shown on a warm or a cold screen, or printed on tinted film: R, G, B scaled unevenly. */
const tinted = (gains: [number, number, number]) => (pixels: Buffer) =>
  Buffer.from(pixels.map((value, index) => Math.round(value * (gains[index % 3] ?? 1))));

const routing = [
  ['X-rays read as X-rays', await routed(everyImage(xrayData), 'xray')],
  ['photos read as photos', await routed(everyImage(photoData), 'photo')],
  [
    'sepia-tinted X-rays read as X-rays',
    await routed(everyImage(xrayData), 'xray', tinted([1, 0.93, 0.8])),
  ],
  [
    'blue-tinted X-rays read as X-rays',
    await routed(everyImage(xrayData), 'xray', tinted([0.8, 0.9, 1])),
  ],
] as const;

console.log(timings.join('\n'));
console.log(
  `Each class reported alone, as the product reports Cavity for 'Caries'. AP at the training evaluation's thresholds (${String(trainingMetrics(xrayData).conf_threshold)}, NMS IoU ${String(trainingMetrics(xrayData).nms_iou)}); recall (IoU ≥ 0.5) at the product's confidence ${String(product.confidence)} and NMS IoU ${String(product.iou)}\n`,
);
console.log(header);
console.log(rows.join('\n'));
console.log('\nRouting (the kind rule on every image of both data sets):');
for (const [what, figure] of routing) console.log(`  ${what.padEnd(36)}${figure}`);

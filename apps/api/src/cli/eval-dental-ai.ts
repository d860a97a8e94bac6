// `npm run eval:dental-ai`: both shipped models on the held-out test splits of their data sets
// (training/split.json for X-rays, training/split-photos.json for photos), measured through the
// API's own pipeline (decoding, the kind rule, sharp letterbox, ONNX Runtime in worker threads,
// decoding, NMS). One table: per-class AP50 and AP50-95 (at the training evaluation's
// thresholds), recall and precision at both tiers with the product's NMS, beside the figures
// the metrics file held before;
// then how often the kind rule reads each data set's images as what they are. With `--choose`,
// each class's two tiers are chosen on the validation splits
// (docs/decisions/dental-ai-operating-points.md); with `--write`, they and the as-shipped
// figures at each tier go into each model's metrics file (`operating_points`, `product`), where
// the API and the result screen read them (docs/decisions/dental-ai-in-the-record.md), and a
// precision–recall chart beside it (`<model>.pr-curve.svg`) for the model card.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ImageKind, ModelFigures } from '@dental/contracts';
import { decodeImage, imageKindOfPixels } from '../adapters/detector/letterbox';
import { loadConfig } from '../config';
import { repoRoot } from '../repo-root';
import { averagePrecisions } from './average-precision';
import {
  classNamesOf,
  detectorFor,
  photoData,
  predictionsOn,
  splitOf,
  xrayData,
  type DataSet,
} from './dental-ai-data-sets';
import {
  chooseOperatingPoint,
  figuresAt,
  operatingPointGoals,
  thresholdsDownTo,
  type OperatingPoint,
} from './operating-points';
import { prCurveSvg, type ClassCurve } from './pr-curve-svg';

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
  /** Each class's thresholds, chosen on the validation split by `--choose`. */
  operating_points?: Record<string, OperatingPoint>;
  product?: ModelFigures;
}

const write = process.argv.includes('--write');
const choose = process.argv.includes('--choose');

const product = loadConfig({}).dentalAi;
/** Below every threshold `chooseOperatingPoint` tries: one detection pass serves them all,
 *  since dropping a box under a threshold after class-aware NMS leaves the others as before. */
const everyCandidate = operatingPointGoals.lowestShown / 2;

const metricsFile = (dataSet: DataSet) =>
  path.join(repoRoot, 'models', dataSet.model.replace(/\.onnx$/, '.metrics.json'));

/** The training script's figures for a data set's model (models/<name>.metrics.json). */
const trainingMetrics = (dataSet: DataSet) =>
  JSON.parse(readFileSync(metricsFile(dataSet), 'utf8')) as TrainingMetrics;

const format = (value: number | null | undefined) =>
  (value == null ? '–' : value.toFixed(2)).padStart(6);
const header = [
  `${'data set'.padEnd(9)}${'class'.padEnd(16)}${'images'.padStart(7)}${'boxes'.padStart(6)}${'AP50'.padStart(6)}${'AP50-95'.padStart(8)}`,
  `  possible: ${'from'.padStart(5)}${'R'.padStart(6)}${'P'.padStart(6)}`,
  `  likely: ${'from'.padStart(5)}${'R'.padStart(6)}${'P'.padStart(6)}`,
  `  before: ${'R'.padStart(6)}${'P'.padStart(6)}${'R lik.'.padStart(7)}${'P lik.'.padStart(7)}`,
].join('');
const rows: string[] = [];
const chosen: string[] = [];
const timings: string[] = [];

for (const dataSet of dataSets) {
  const trained = trainingMetrics(dataSet);
  const split = splitOf(dataSet);
  const figures: ModelFigures = {
    measured_by: 'npm run eval:dental-ai',
    images: split.test.length,
    nms_iou: product.iou,
    match_iou: 0.5,
    classes: {},
  };
  const points: Record<string, OperatingPoint> = {};
  const curves: ClassCurve[] = [];
  const classNames = classNamesOf(dataSet);
  for (const name of classNames) {
    // At the training evaluation's thresholds for AP; with the product's NMS for the tiers.
    const evaluation = detectorFor(dataSet, name, {
      confidence: trained.conf_threshold,
      iou: trained.nms_iou,
    });
    const asShipped = detectorFor(dataSet, name, { confidence: everyCandidate, iou: product.iou });
    await Promise.all([evaluation.load(), asShipped.load()]);
    // The data set's own kind: this measures the model; the routing is measured below.
    const byEvaluation = (image: Uint8Array) => evaluation.detect('caries', image, dataSet.kind);
    const asProduct = (image: Uint8Array) => asShipped.detect('caries', image, dataSet.kind);
    const scored = await predictionsOn(dataSet, name, split.test, byEvaluation);
    const shipped = await predictionsOn(dataSet, name, split.test, asProduct);
    const point = choose
      ? chooseOperatingPoint((await predictionsOn(dataSet, name, split.val, asProduct)).boxes)
      : trained.operating_points?.[name];
    await Promise.all([evaluation.close(), asShipped.close()]);
    if (point === undefined) {
      throw new Error(
        `${dataSet.model} has no operating point for ${name}: run with --choose first.`,
      );
    }
    points[name] = point;
    if (name === classNames[0]) {
      timings.push(
        `${dataSet.title}: ${String(split.test.length)} held-out images (${dataSet.splitFile}), ${(shipped.milliseconds / split.test.length).toFixed(0)} ms per detection`,
      );
    }
    const atPossible = figuresAt(shipped.boxes, point.possible);
    const atLikely = point.likely === null ? null : figuresAt(shipped.boxes, point.likely);
    curves.push({
      name,
      points: thresholdsDownTo(operatingPointGoals.lowestShown).map((threshold) =>
        figuresAt(shipped.boxes, threshold),
      ),
      possible: { ...atPossible, from: point.possible },
      likely:
        atLikely === null || point.likely === null ? null : { ...atLikely, from: point.likely },
    });
    figures.classes[name] = {
      boxes: shipped.boxes.reduce((sum, image) => sum + image.labelled.length, 0),
      possible_from: point.possible,
      likely_from: point.likely,
      recall: atPossible.recall,
      precision: atPossible.precision,
      likely_recall: atLikely?.recall ?? null,
      likely_precision: atLikely?.precision ?? null,
    };
    if (choose) {
      chosen.push(
        `  ${dataSet.title.padEnd(7)}${name.padEnd(16)}possible from ${point.possible.toFixed(2)} (R ${point.at_possible.recall.toFixed(2)}, P ${point.at_possible.precision.toFixed(2)}${point.recall_goal_met ? '' : `; recall ${String(operatingPointGoals.possibleRecall)} not reachable from ${String(operatingPointGoals.lowestShown)}`}), likely ${point.likely === null ? `none (precision ${String(operatingPointGoals.likelyPrecision)} never reached)` : `from ${point.likely.toFixed(2)} (R ${point.at_likely?.recall.toFixed(2) ?? ''}, P ${point.at_likely?.precision.toFixed(2) ?? ''})`}`,
      );
    }
    const aps = averagePrecisions(scored.boxes);
    const before = trained.product?.classes[name];
    const measured = figures.classes[name];
    rows.push(
      [
        `${dataSet.title.padEnd(9)}${name.padEnd(16)}${String(split.test.length).padStart(7)}${String(measured.boxes).padStart(6)}${format(aps[0])}${format(aps.reduce((sum, ap) => sum + ap, 0) / aps.length).padStart(8)}`,
        `            ${format(point.possible).slice(1)}${format(measured.recall)}${format(measured.precision)}`,
        `          ${format(point.likely).slice(1)}${format(measured.likely_recall)}${format(measured.likely_precision)}`,
        `          ${format(before?.recall)}${format(before?.precision)}${format(before?.likely_recall).padStart(7)}${format(before?.likely_precision).padStart(7)}`,
      ].join(''),
    );
  }
  if (write) {
    writeFileSync(
      metricsFile(dataSet),
      `${JSON.stringify({ ...trainingMetrics(dataSet), operating_points: points, product: figures }, null, 2)}\n`,
    );
    writeFileSync(
      metricsFile(dataSet).replace(/\.metrics\.json$/, '.pr-curve.svg'),
      prCurveSvg(`${dataSet.model.replace(/\.onnx$/, '')}: ${dataSet.title} test split`, curves),
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
if (choose) {
  console.log(
    `\nOperating points chosen on the validation splits: 'likely' from the lowest score whose boxes are at least ${String(operatingPointGoals.likelyPrecision)} precise, 'possible' from the highest that finds ${String(operatingPointGoals.possibleRecall)} of the labelled boxes (never below ${String(operatingPointGoals.lowestShown)}):`,
  );
  console.log(chosen.join('\n'));
}
console.log(
  `\nTest splits. Each class reported alone, as the product reports Cavity for 'Caries'. AP at the training evaluation's thresholds (${String(trainingMetrics(xrayData).conf_threshold)}, NMS IoU ${String(trainingMetrics(xrayData).nms_iou)}); recall (R) and precision (P) at IoU ≥ 0.5 from each tier's threshold with the product's NMS IoU ${String(product.iou)}; 'before': the figures the metrics file held when this run started.\n`,
);
console.log(header);
console.log(rows.join('\n'));
console.log('\nRouting (the kind rule on every image of both data sets):');
for (const [what, figure] of routing) console.log(`  ${what.padEnd(36)}${figure}`);

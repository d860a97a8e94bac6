import { existsSync } from 'node:fs';
import sharp from 'sharp';
import type { Detection, DetectionOutcome } from '../apps/api/src/adapters/detector/detector';
import { decodeImage } from '../apps/api/src/adapters/detector/letterbox';
import { nonMaximumSuppression } from '../apps/api/src/adapters/detector/nms';
import type { PipelineDetector } from '../apps/api/src/adapters/detector/pipeline-detector';
import { averagePrecisions, type ImageBoxes } from '../apps/api/src/cli/average-precision';
import {
  classNamesOf,
  detectorFor,
  predictionsOn,
  splitOf,
  xrayData,
} from '../apps/api/src/cli/dental-ai-data-sets';
import { median } from './median';

// What keeping test-time augmentation would need (docs/decisions/dental-ai-operating-points.md):
// validation AP50 up by at least 0.02, at no more than 1.5 times the time of one detection.
const apGain = 0.02;
const costRatio = 1.5;

/** A box of a horizontally mirrored image, put back on the original. */
const unflipped = (box: Detection, width: number): Detection => ({
  ...box,
  xmin: width - box.xmax,
  xmax: width - box.xmin,
});

/**
 * The detector on the image and on its mirror image (a panoramic X-ray is nearly symmetric left
 * to right), the mirrored boxes put back and both sets merged by the same class-aware NMS the
 * pipeline uses.
 */
function withHorizontalFlip(detector: PipelineDetector, iou: number) {
  return async (image: Uint8Array): Promise<DetectionOutcome> => {
    const decoded = await decodeImage(image);
    const mirrored = await sharp(decoded.data, { raw: decoded.info })
      .flop()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const [plain, flipped] = [
      await detector.detect('caries', decoded, 'xray'),
      await detector.detect('caries', { data: mirrored.data, info: { ...decoded.info } }, 'xray'),
    ];
    const labels = [
      ...new Set([...plain.detections, ...flipped.detections].map((box) => box.label)),
    ];
    const merged = nonMaximumSuppression(
      [...plain.detections, ...flipped.detections.map((box) => unflipped(box, plain.width))].map(
        (box) => ({
          x1: box.xmin,
          y1: box.ymin,
          x2: box.xmax,
          y2: box.ymax,
          score: box.confidence,
          classIndex: labels.indexOf(box.label),
        }),
      ),
      iou,
    );
    return {
      ...plain,
      detections: merged.map((box) => ({
        xmin: box.x1,
        ymin: box.y1,
        xmax: box.x2,
        ymax: box.y2,
        label: labels[box.classIndex] ?? '',
        confidence: box.score,
      })),
    };
  };
}

/**
 * `npm run bench -- dental-ai-tta`: the shipped X-ray model on the validation split with and
 * without a horizontal flip at test time, per class: AP50 (at the training evaluation's
 * thresholds) and the time per image, and whether the flip meets the bar to be kept.
 */
export async function dentalAiTtaBench(): Promise<void> {
  if (!existsSync(xrayData.folder)) {
    console.log(`Skipped: the X-ray data set is not at ${xrayData.folder}.`);
    return;
  }
  const images = splitOf(xrayData).val;
  const thresholds = { confidence: 0.001, iou: 0.6 };
  console.log(
    `${xrayData.model} on ${String(images.length)} validation X-rays; AP50 at confidence ${String(thresholds.confidence)}, NMS IoU ${String(thresholds.iou)}`,
  );
  console.log(
    `${'class'.padEnd(16)}${'AP50'.padStart(7)}${'flip'.padStart(7)}${'gain'.padStart(7)}${'ms'.padStart(7)}${'flip ms'.padStart(9)}${'ratio'.padStart(7)}  kept?   (ms: median per image; ratio: median of the per-image ratios)`,
  );
  for (const name of classNamesOf(xrayData)) {
    const detector = detectorFor(xrayData, name, thresholds);
    await detector.load();
    const plainDetect = (image: Uint8Array) => detector.detect('caries', image, 'xray');
    const flipDetect = withHorizontalFlip(detector, thresholds.iou);
    // Warm the workers once so neither run pays for the model's loading.
    await predictionsOn(xrayData, name, images.slice(0, 2), plainDetect);
    // Image by image, one way then the other, so that a busy minute of the machine weighs on
    // both alike; the medians per image are compared.
    const plain: ImageBoxes[] = [];
    const flipped: ImageBoxes[] = [];
    const plainMs: number[] = [];
    const flipMs: number[] = [];
    for (const image of images) {
      const once = await predictionsOn(xrayData, name, [image], plainDetect);
      const twice = await predictionsOn(xrayData, name, [image], flipDetect);
      plain.push(...once.boxes);
      flipped.push(...twice.boxes);
      plainMs.push(once.milliseconds);
      flipMs.push(twice.milliseconds);
    }
    await detector.close();
    const [ap = 0] = averagePrecisions(plain);
    const [flipAp = 0] = averagePrecisions(flipped);
    const gain = flipAp - ap;
    const ratio = median(flipMs.map((ms, index) => ms / (plainMs[index] ?? ms)));
    console.log(
      `${name.padEnd(16)}${ap.toFixed(3).padStart(7)}${flipAp.toFixed(3).padStart(7)}${gain.toFixed(3).padStart(7)}${median(plainMs).toFixed(0).padStart(7)}${median(flipMs).toFixed(0).padStart(9)}${`${ratio.toFixed(2)}×`.padStart(7)}  ${gain >= apGain && ratio <= costRatio ? 'yes' : 'no'}`,
    );
  }
  console.log(
    `Kept only where AP50 gains at least ${String(apGain)} at no more than ${String(costRatio)}× the time per image.`,
  );
}

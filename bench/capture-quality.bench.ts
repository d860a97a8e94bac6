import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import sharp, { type Sharp } from 'sharp';
import {
  analysisSize,
  measurePhotoQuality,
  photoQualityAnalysisSide,
  photoRefusal,
  type PhotoQuality,
  type PhotoRefusalReason,
} from '@dental/contracts/photo-quality';

/** The CAV-TEE intra-oral photos (CC BY 4.0), read where they lie; never copied into the repo. */
const dataset = path.resolve(import.meta.dirname, '../../shared/datasets/dental-cavity-photos');
const splits = ['train', 'valid', 'test'];

/** The copies each photo is read as: the photo itself, and what a shaking hand or bad light makes
 *  of it, all made at the analysis size as the capture screen sees its frames. */
interface Size {
  width: number;
  height: number;
}
const variants: { name: string; unusable: boolean; make: (image: Sharp, size: Size) => Sharp }[] = [
  { name: 'sharp', unusable: false, make: (image) => image },
  { name: 'blur σ1.5', unusable: true, make: (image) => image.blur(1.5) },
  { name: 'blur σ2', unusable: true, make: (image) => image.blur(2) },
  { name: 'blur σ3', unusable: true, make: (image) => image.blur(3) },
  { name: 'dark ×0.2', unusable: true, make: (image) => image.linear(0.2, 0) },
  { name: 'dark ×0.3', unusable: true, make: (image) => image.linear(0.3, 0) },
  { name: 'bright ×2.5', unusable: true, make: (image) => image.linear(2.5, 0) },
  { name: 'bright +120', unusable: true, make: (image) => image.linear(1, 120) },
  // Held too far away: the mouth a third of the frame's width, in a dim room.
  { name: 'far ⅓', unusable: true, make: (image, size) => farAway(image, size) },
];

/** The photo shrunk to a third, centred on a dim grey background of its own size. */
function farAway(image: Sharp, size: Size): Sharp {
  const small = { width: Math.round(size.width / 3), height: Math.round(size.height / 3) };
  const left = Math.floor((size.width - small.width) / 2);
  const top = Math.floor((size.height - small.height) / 2);
  return image.resize(small.width, small.height).extend({
    left,
    top,
    right: size.width - small.width - left,
    bottom: size.height - small.height - top,
    background: { r: 70, g: 70, b: 70 },
  });
}

async function pixelsOf(file: string, variant: (typeof variants)[number]) {
  const { width, height } = await sharp(file).metadata();
  const size = analysisSize(width, height);
  // Resized first, then blurred or exposed: the copy is what the screen would read.
  const resized = await sharp(file).resize(size.width, size.height).removeAlpha().toBuffer();
  const { data, info } = await variant
    .make(sharp(resized), size)
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

function percentile(values: number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? Number.NaN;
}

/**
 * `npm run bench -- capture-quality`: how many of the data set's photos the capture screen's
 * checks accept, and how many of their blurred, darkened and brightened copies they refuse, at the
 * limits in packages/contracts/src/photo-quality.ts (docs/decisions/guided-capture.md).
 */
export async function captureQualityBench(): Promise<void> {
  if (!existsSync(dataset)) {
    console.log(`The photo data set is not at ${dataset}; nothing to measure.`);
    return;
  }
  const files = splits.flatMap((split) =>
    readdirSync(path.join(dataset, split, 'images')).map((name) =>
      path.join(dataset, split, 'images', name),
    ),
  );
  const usable: string[] = [];
  for (const file of files) {
    const { width, height } = await sharp(file).metadata();
    // A photo smaller than the analysis size would be read enlarged, which no camera frame is.
    if (Math.max(width, height) >= photoQualityAnalysisSide) usable.push(file);
  }
  console.log(
    `${String(usable.length)} of ${String(files.length)} photos are at least ${String(photoQualityAnalysisSide)} px on their longest side; the others are left out.`,
  );
  for (const variant of variants) {
    const measures: PhotoQuality[] = [];
    const reasons = new Map<PhotoRefusalReason | 'accepted', number>();
    for (const file of usable) {
      const quality = measurePhotoQuality(await pixelsOf(file, variant));
      measures.push(quality);
      const reason = photoRefusal(quality) ?? 'accepted';
      reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
    }
    const accepted = reasons.get('accepted') ?? 0;
    const verdict = variant.unusable
      ? `refused ${String(usable.length - accepted)}/${String(usable.length)}`
      : `accepted ${String(accepted)}/${String(usable.length)}`;
    const spread = (key: keyof PhotoQuality) =>
      `${key} p5 ${percentile(
        measures.map((m) => m[key]),
        0.05,
      ).toFixed(2)} p50 ${percentile(
        measures.map((m) => m[key]),
        0.5,
      ).toFixed(2)} p95 ${percentile(
        measures.map((m) => m[key]),
        0.95,
      ).toFixed(2)}`;
    console.log(
      `${variant.name.padEnd(12)} ${verdict.padEnd(16)} reasons ${JSON.stringify(Object.fromEntries(reasons))}`,
    );
    console.log(
      `             ${(['sharpness', 'meanLuma', 'clippedDark', 'clippedBright', 'teethFill'] as const).map(spread).join(' | ')}`,
    );
  }
}

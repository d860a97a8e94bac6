import { z } from 'zod';

/**
 * What a Dental AI image is: a colour photo of teeth or a grey X-ray. Each has its own model
 * (docs/decisions/dental-ai-photos.md).
 */
export const imageKinds = ['photo', 'xray'] as const;
export const imageKind = z.enum(imageKinds, 'Choose photo or xray.');
export type ImageKind = z.infer<typeof imageKind>;

/** The form's choices for correcting the kind read from the pixels. */
export const imageKindLabels: Record<ImageKind, string> = {
  photo: 'This is a photo',
  xray: 'This is an X-ray',
};

/** What a result says its image was read as (the result screen and the data export). */
export const imageKindNames: Record<ImageKind, string> = {
  photo: 'a colour photo',
  xray: 'an X-ray',
};

/** The rule reads the image shrunk to fit this many pixels a side. */
export const imageKindSampleSide = 64;

/**
 * Above this chromaticity spread an image is a colour photo; at or below, an X-ray. Measured on
 * the two data sets the models were trained on (docs/decisions/dental-ai-photos.md): X-rays 0,
 * X-rays tinted sepia or blue at most 0.21, photos at least 2.55.
 */
export const photoChromaSpread = 1;

/** Pixels darker than this (R + G + B) have too little light for their hue to mean anything. */
const darkSum = 60;

/**
 * How much the hue varies across an image: the spread (standard deviation, in percent) of the
 * chromaticity r = R / (R + G + B), g = G / (R + G + B) over its lit pixels. A grey X-ray has one
 * chromaticity everywhere, and so does one tinted by a screen, film or scanner, since a tint
 * scales R, G and B alike for every pixel; teeth beside gums and lips in a photo do not.
 */
export function chromaSpread(pixels: ArrayLike<number>, channels: 3 | 4): number {
  let count = 0;
  let sumR = 0;
  let sumG = 0;
  let sumR2 = 0;
  let sumG2 = 0;
  for (let index = 0; index + 2 < pixels.length; index += channels) {
    const red = pixels[index] ?? 0;
    const green = pixels[index + 1] ?? 0;
    const sum = red + green + (pixels[index + 2] ?? 0);
    if (sum < darkSum) continue;
    const r = red / sum;
    const g = green / sum;
    sumR += r;
    sumG += g;
    sumR2 += r * r;
    sumG2 += g * g;
    count += 1;
  }
  if (count === 0) return 0;
  const varianceR = Math.max(0, sumR2 / count - (sumR / count) ** 2);
  const varianceG = Math.max(0, sumG2 / count - (sumG / count) ** 2);
  return 100 * Math.sqrt(varianceR + varianceG);
}

/** The kind an image's pixels say it is (the same rule in the browser and the API). */
export function imageKindOf(pixels: ArrayLike<number>, channels: 3 | 4): ImageKind {
  return chromaSpread(pixels, channels) > photoChromaSpread ? 'photo' : 'xray';
}

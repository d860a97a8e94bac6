/**
 * Whether a photo of the teeth is usable, read from its pixels before it is accepted
 * (docs/decisions/guided-capture.md). Pure and free of the DOM and of Node, so that the capture
 * screen runs it on a canvas's ImageData and the capture-quality benchmark runs the same code on
 * pixels decoded with sharp.
 */

/** The frame is shrunk to fit this many pixels a side before it is read: the thresholds below
 *  were chosen at this size, and sharpness depends on it. */
export const photoQualityAnalysisSide = 256;

/**
 * The region the outline marks, as fractions of the frame: an ellipse centred in it. The outline
 * of each view is drawn inside it; 'teeth fill the frame' is read inside it.
 */
export const captureOutline = { centreX: 0.5, centreY: 0.5, radiusX: 0.42, radiusY: 0.34 };

/**
 * The limits, chosen on the CAV-TEE photos (dental-cavity-photos) with their blurred, darkened and
 * brightened copies; the figures are in docs/decisions/guided-capture.md.
 */
export const photoQualityLimits = {
  /** Variance of the 4-neighbour Laplacian of the grey image, below which it is blurred. */
  minSharpness: 40,
  /** Mean grey level (0–255) below which it is too dark, and above which too bright. */
  minMeanLuma: 45,
  maxMeanLuma: 215,
  /** Share of pixels black (grey ≤ 8) or white (grey ≥ 247) above which it is too dark or too
   *  bright even when the mean is fine (a flash on wet teeth, a shadow over half the mouth). */
  maxClippedDark: 0.45,
  maxClippedBright: 0.35,
  /** Share of tooth-like pixels inside the outline below which the teeth fill too little of it. */
  minTeethFill: 0.2,
};

export const photoRefusalReasons = ['blurred', 'dark', 'bright', 'small'] as const;
export type PhotoRefusalReason = (typeof photoRefusalReasons)[number];

/** What the capture screen says when it refuses a photo, and asks for another. */
export const photoRefusalMessages: Record<PhotoRefusalReason, string> = {
  blurred: 'This photo is blurred. Hold the phone still and try again.',
  dark: 'This photo is too dark. Turn on a light or face a window and try again.',
  bright: 'This photo is too bright. Move out of direct light or turn off the flash and try again.',
  small: 'Your teeth fill too little of the outline. Move the phone closer and try again.',
};

/** Raw RGBA pixels, four bytes a pixel, row after row: a canvas's ImageData, or sharp's raw
 *  output with an alpha channel. */
export interface RgbaPixels {
  data: ArrayLike<number>;
  width: number;
  height: number;
}

export interface PhotoQuality {
  sharpness: number;
  meanLuma: number;
  clippedDark: number;
  clippedBright: number;
  teethFill: number;
}

/** Rec. 601 luma: the grey a phone's camera would record. */
function luma(data: ArrayLike<number>, at: number): number {
  return 0.299 * (data[at] ?? 0) + 0.587 * (data[at + 1] ?? 0) + 0.114 * (data[at + 2] ?? 0);
}

/**
 * A tooth is lit and not red: grey level at least 100, and green at least 0.6 of red. Gums, lips
 * and tongue are red (green a quarter to a half of red in the data set's photos); enamel, even
 * under warm light that makes it yellow, keeps green at two thirds of red or more.
 */
function toothLike(data: ArrayLike<number>, at: number, grey: number): boolean {
  return grey >= 100 && (data[at + 1] ?? 0) >= 0.6 * (data[at] ?? 0);
}

/** Sharpness, exposure and how much of the outline tooth-like pixels fill, from the pixels. */
export function measurePhotoQuality({ data, width, height }: RgbaPixels): PhotoQuality {
  const grey = new Float32Array(width * height);
  let lumaSum = 0;
  let dark = 0;
  let bright = 0;
  let inside = 0;
  let teeth = 0;
  for (let y = 0; y < height; y += 1) {
    const dy = ((y + 0.5) / height - captureOutline.centreY) / captureOutline.radiusY;
    for (let x = 0; x < width; x += 1) {
      const pixel = y * width + x;
      const value = luma(data, pixel * 4);
      grey[pixel] = value;
      lumaSum += value;
      if (value <= 8) dark += 1;
      if (value >= 247) bright += 1;
      const dx = ((x + 0.5) / width - captureOutline.centreX) / captureOutline.radiusX;
      if (dx * dx + dy * dy <= 1) {
        inside += 1;
        if (toothLike(data, pixel * 4, value)) teeth += 1;
      }
    }
  }
  // Variance of the Laplacian: a sharp edge gives large second differences, a blurred one small.
  let sum = 0;
  let squares = 0;
  let count = 0;
  for (let y = 1; y < height - 1; y += 1) {
    for (let x = 1; x < width - 1; x += 1) {
      const at = y * width + x;
      const laplacian =
        (grey[at - 1] ?? 0) +
        (grey[at + 1] ?? 0) +
        (grey[at - width] ?? 0) +
        (grey[at + width] ?? 0) -
        4 * (grey[at] ?? 0);
      sum += laplacian;
      squares += laplacian * laplacian;
      count += 1;
    }
  }
  const pixels = Math.max(1, width * height);
  const mean = count === 0 ? 0 : sum / count;
  return {
    sharpness: count === 0 ? 0 : squares / count - mean * mean,
    meanLuma: lumaSum / pixels,
    clippedDark: dark / pixels,
    clippedBright: bright / pixels,
    teethFill: inside === 0 ? 0 : teeth / inside,
  };
}

/**
 * Why the photo is refused, or null when it is accepted. Exposure comes first: a dark photo also
 * reads as blurred, and 'turn on a light' is the advice that helps.
 */
export function photoRefusal(
  quality: PhotoQuality,
  limits: typeof photoQualityLimits = photoQualityLimits,
): PhotoRefusalReason | null {
  if (quality.meanLuma < limits.minMeanLuma || quality.clippedDark > limits.maxClippedDark) {
    return 'dark';
  }
  if (quality.meanLuma > limits.maxMeanLuma || quality.clippedBright > limits.maxClippedBright) {
    return 'bright';
  }
  if (quality.sharpness < limits.minSharpness) return 'blurred';
  if (quality.teethFill < limits.minTeethFill) return 'small';
  return null;
}

/** The size to shrink a frame to before reading it: its longest side `photoQualityAnalysisSide`,
 *  never enlarged. */
export function analysisSize(width: number, height: number): { width: number; height: number } {
  const scale = Math.min(1, photoQualityAnalysisSide / Math.max(width, height, 1));
  return {
    width: Math.max(1, Math.round(width * scale)),
    height: Math.max(1, Math.round(height * scale)),
  };
}

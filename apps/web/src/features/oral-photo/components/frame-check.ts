import {
  analysisSize,
  measurePhotoQuality,
  photoRefusal,
  type PhotoRefusalReason,
} from '@dental/contracts/photo-quality';

/** The longest side a stored capture keeps: sharp enough for a dentist, and well under 5 MB as a
 *  JPEG. */
const storedSide = 1600;

function canvasOf(width: number, height: number) {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d', { willReadFrequently: true });
  if (context === null) throw new Error('This browser cannot read the photo’s pixels.');
  context.imageSmoothingQuality = 'high';
  return { canvas, context };
}

export interface CheckedFrame {
  /** Why the frame is refused, or null when it is accepted. */
  refusal: PhotoRefusalReason | null;
  /** The frame as a JPEG data link, for the upload; only made when it is accepted. */
  imageLink: string | null;
}

/**
 * Reads a video frame or a still photo with the same checks the capture-quality benchmark runs
 * (docs/decisions/guided-capture.md): shrunk to the analysis size first, since the limits were
 * chosen at that size.
 */
export function checkFrame(source: CanvasImageSource, width: number, height: number): CheckedFrame {
  const small = analysisSize(width, height);
  const analysis = canvasOf(small.width, small.height);
  analysis.context.drawImage(source, 0, 0, small.width, small.height);
  const refusal = photoRefusal(
    measurePhotoQuality(analysis.context.getImageData(0, 0, small.width, small.height)),
  );
  if (refusal !== null) return { refusal, imageLink: null };
  const scale = Math.min(1, storedSide / Math.max(width, height));
  const stored = canvasOf(Math.round(width * scale), Math.round(height * scale));
  stored.context.drawImage(source, 0, 0, stored.canvas.width, stored.canvas.height);
  return { refusal: null, imageLink: stored.canvas.toDataURL('image/jpeg', 0.9) };
}

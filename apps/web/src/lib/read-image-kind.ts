import { imageKindOf, imageKindSampleSide, type ImageKind } from '@dental/contracts';

/** The size an image is sampled at: scaled to fit the sample square, keeping its shape, as the
 *  API's `fit: 'inside'` resize does, so that both read the same pixels. */
export function sampleSize(width: number, height: number): { width: number; height: number } {
  const scale = Math.min(imageKindSampleSide / width, imageKindSampleSide / height);
  return {
    width: Math.max(1, Math.round(width * scale)),
    height: Math.max(1, Math.round(height * scale)),
  };
}

/**
 * Whether the chosen image is a colour photo or an X-ray, read in the browser by the rule the API
 * applies to the same pixels, so the form can show the member what it will be taken for. Null
 * when this browser cannot decode or draw it: then the API reads it.
 */
export async function readImageKind(image: Blob): Promise<ImageKind | null> {
  try {
    const bitmap = await createImageBitmap(image);
    try {
      const { width, height } = sampleSize(bitmap.width, bitmap.height);
      const canvas = document.createElement('canvas');
      canvas.width = width;
      canvas.height = height;
      const context = canvas.getContext('2d');
      if (context === null) return null;
      context.drawImage(bitmap, 0, 0, width, height);
      return imageKindOf(context.getImageData(0, 0, width, height).data, 4);
    } finally {
      bitmap.close();
    }
  } catch {
    // No createImageBitmap (jsdom, old browsers) or a file it cannot decode.
    return null;
  }
}

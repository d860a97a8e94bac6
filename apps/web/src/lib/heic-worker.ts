import libheif from 'libheif-js/libheif-wasm/libheif-bundle.mjs';

/** What the page asks: a HEIC file's bytes, and the most pixels it may decode. */
export interface HeicRequest {
  bytes: ArrayBuffer;
  maxPixels: number;
}

/** The file's primary image, upright (libheif applies the file's rotation and mirror), as RGBA
 *  pixels; or that it could not be decoded within the limit. */
export type HeicAnswer =
  | { width: number; height: number; pixels: Uint8ClampedArray<ArrayBuffer> }
  | { error: 'unreadable' | 'too-many-pixels' };

// The app's TypeScript library is the window's; this file runs as a dedicated worker.
const scope = globalThis as unknown as {
  onmessage: ((event: MessageEvent<HeicRequest>) => void) | null;
  postMessage(answer: HeicAnswer, transfer?: Transferable[]): void;
};

/**
 * Decodes a HEIC/HEIF photo with libheif (WebAssembly) off the page's thread, so a hostile or
 * huge file stalls or crashes only this worker, which the page then ends
 * (docs/decisions/phone-photos.md). One file per worker.
 */
scope.onmessage = ({ data: { bytes, maxPixels } }) => {
  try {
    const images = new (libheif().HeifDecoder)().decode(new Uint8Array(bytes));
    const image = images.find((candidate) => candidate.is_primary()) ?? images[0];
    if (image === undefined) {
      scope.postMessage({ error: 'unreadable' });
      return;
    }
    const width = image.get_width();
    const height = image.get_height();
    // Checked from the header, before the pixels are allocated.
    if (width * height > maxPixels) {
      scope.postMessage({ error: 'too-many-pixels' });
      return;
    }
    const pixels = new Uint8ClampedArray(width * height * 4);
    image.display({ data: pixels, width, height }, (shown) => {
      for (const each of images) each.free();
      if (shown === null) scope.postMessage({ error: 'unreadable' });
      else scope.postMessage({ width, height, pixels }, [pixels.buffer]);
    });
  } catch {
    scope.postMessage({ error: 'unreadable' });
  }
};

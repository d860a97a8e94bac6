import { writeFile } from 'node:fs/promises';
import sharp from 'sharp';

/** The fake camera's frame size: what getUserMedia gives when the page asks for no size. */
const width = 640;
const height = 480;

/**
 * A Y4M video of one frame for Chromium's fake camera (`--use-file-for-fake-video-capture`), which
 * plays it in a loop: a short text header, then the frame as raw I420 (a full-size Y plane, then U
 * and V at half size each way), converted from sharp's RGB with the BT.601 studio-range matrix
 * that the header's C420jpeg names for Chromium.
 */
export async function writeFakeCameraVideo(photo: Buffer, file: string, blurSigma?: number) {
  const resized = sharp(photo).resize(width, height, { fit: 'cover' }).removeAlpha();
  const rgb = await (blurSigma === undefined ? resized : resized.blur(blurSigma)).raw().toBuffer();
  const y = Buffer.alloc(width * height);
  const u = Buffer.alloc((width / 2) * (height / 2));
  const v = Buffer.alloc((width / 2) * (height / 2));
  const at = (column: number, row: number) => {
    const index = (row * width + column) * 3;
    return [rgb[index] ?? 0, rgb[index + 1] ?? 0, rgb[index + 2] ?? 0] as const;
  };
  for (let row = 0; row < height; row += 1) {
    for (let column = 0; column < width; column += 1) {
      const [r, g, b] = at(column, row);
      y[row * width + column] = 16 + (65.738 * r + 129.057 * g + 25.064 * b) / 256;
    }
  }
  for (let row = 0; row < height / 2; row += 1) {
    for (let column = 0; column < width / 2; column += 1) {
      // Each chroma sample is the mean of the 2 × 2 pixels it covers.
      const block = [
        at(2 * column, 2 * row),
        at(2 * column + 1, 2 * row),
        at(2 * column, 2 * row + 1),
        at(2 * column + 1, 2 * row + 1),
      ];
      const mean = (channel: 0 | 1 | 2) =>
        block.reduce((sum, pixel) => sum + pixel[channel], 0) / block.length;
      const [r, g, b] = [mean(0), mean(1), mean(2)];
      u[row * (width / 2) + column] = 128 + (-37.945 * r - 74.494 * g + 112.439 * b) / 256;
      v[row * (width / 2) + column] = 128 + (112.439 * r - 94.154 * g - 18.285 * b) / 256;
    }
  }
  const header = `YUV4MPEG2 W${String(width)} H${String(height)} F30:1 Ip A1:1 C420jpeg\n`;
  await writeFile(file, Buffer.concat([Buffer.from(header), Buffer.from('FRAME\n'), y, u, v]));
}

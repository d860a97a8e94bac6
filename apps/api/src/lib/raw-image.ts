/**
 * An image decoded once and turned upright (EXIF orientation applied): raw sRGB bytes, three
 * channels, no alpha. Upload acceptance makes it and Dental AI's models read it
 * (docs/decisions/dental-ai-photos.md).
 */
export interface RawRgbImage {
  data: Buffer;
  info: { width: number; height: number; channels: 3 };
}

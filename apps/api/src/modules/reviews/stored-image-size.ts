import { buffer } from 'node:stream/consumers';
import sharp from 'sharp';
import type { BlobStore } from '#api/adapters/blob-store/blob-store';
import type { StoredImageSize } from './reviews.service';

/** Reads a stored image's size from its header: stored images are upright and carry no
 *  orientation tag (docs/decisions/photo-orientation-and-metadata.md), so this is the size the
 *  boxes are drawn on. */
export const storedImageSize =
  (blobs: BlobStore): StoredImageSize =>
  async (blobKey) => {
    const blob = await blobs.get(blobKey);
    if (blob === null) throw new Error(`the stored image ${blobKey} is missing`);
    const { width, height } = await sharp(await buffer(blob.stream)).metadata();
    return { width, height };
  };

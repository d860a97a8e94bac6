import { randomUUID } from 'node:crypto';
import type { TestApp } from '../build-test-app';
import type { DentalAiResult } from '@dental/contracts';
import type { Detection } from '#api/adapters/detector/detector';
import { dentalAiResults, oralPhotos } from '#api/db/schema';
import { makePng } from '../fixtures/upload-test-files';

/** Test helpers for the features that store files. */

/** Keys of every blob stored for the member. */
export async function storedKeys(t: TestApp, userId: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const blob of t.services.blobs.list(`users/${userId}/`)) keys.push(blob.key);
  return keys.sort();
}

/**
 * Makes the member's storage look `bytes` full, with a photo row whose blobs were never written
 * (the quota counts rows, so no real bytes are needed).
 */
export async function fillStorage(t: TestApp, userId: string, bytes: number): Promise<void> {
  const key = `users/${userId}/oral-photo/${randomUUID()}.png`;
  await t.db.insert(oralPhotos).values({
    userId,
    shootDate: '2020-01-01',
    photoType: 'Photo',
    blobKey: key,
    contentType: 'image/png',
    sizeBytes: bytes,
    thumbnailKey: `${key}.thumb.webp`,
    thumbnailSizeBytes: 0,
  });
}

/** Fetches a signed link as a browser would: no bearer header. */
export function fetchLink(t: TestApp, link: string) {
  return t.app.inject({ method: 'GET', url: link });
}

/** A stored Dental AI result of the member's, as a run leaves it (the detector is not run): a
 *  PNG with no boxes unless `stored` says otherwise. */
export async function addDentalAiResult(
  t: TestApp,
  member: { id: string },
  stored: {
    image?: { bytes: Buffer; contentType: string; width: number; height: number };
    detections?: Detection[];
  } = {},
): Promise<DentalAiResult> {
  const image = stored.image ?? {
    bytes: await makePng(),
    contentType: 'image/png',
    width: 8,
    height: 8,
  };
  const key = `users/${member.id}/dental-ai/${randomUUID()}.${image.contentType.slice(6)}`;
  await t.services.blobs.put(key, image.bytes, image.contentType);
  const [row] = await t.db
    .insert(dentalAiResults)
    .values({
      userId: member.id,
      dentalAi: 'caries',
      blobKey: key,
      contentType: image.contentType,
      imageWidth: image.width,
      imageHeight: image.height,
      detections: stored.detections ?? [],
      modelName: 'test',
      modelVersion: '1',
    })
    .returning({ id: dentalAiResults.id });
  return t.services.dentalAi.get(member.id, row?.id ?? '');
}

import { randomUUID } from 'node:crypto';
import { dentalAiResults, type DentalAiResultRow } from '#api/db/schema';
import type { TestApp } from '../build-test-app';
import { makePng } from '../fixtures/upload-test-files';

/** A stored Dental AI result of the member (a 64 × 48 image) with two boxes, as a run would
 *  leave it; `changes` set the type, kind and boxes. */
export async function storedDentalAiResult(
  t: Pick<TestApp, 'db' | 'services' | 'clock'>,
  memberId: string,
  changes: Partial<Pick<DentalAiResultRow, 'dentalAi' | 'imageKind' | 'detections'>> = {},
): Promise<DentalAiResultRow> {
  const key = `users/${memberId}/dental-ai/${randomUUID()}.png`;
  await t.services.blobs.put(key, await makePng(64, 48), 'image/png');
  const [row] = await t.db
    .insert(dentalAiResults)
    .values({
      userId: memberId,
      dentalAi: 'caries',
      blobKey: key,
      contentType: 'image/png',
      imageWidth: 64,
      imageHeight: 48,
      detections: [
        { xmin: 1, ymin: 1, xmax: 10, ymax: 10, label: 'Cavity', confidence: 0.9 },
        { xmin: 20, ymin: 20, xmax: 30, ymax: 30, label: 'Cavity', confidence: 0.6 },
      ],
      imageKind: 'photo',
      imageKindSource: 'member',
      modelName: 'fixture',
      modelVersion: '1',
      createdAt: t.clock.now(),
      ...changes,
    })
    .returning();
  if (row === undefined) throw new Error('The Dental AI result was not stored');
  return row;
}

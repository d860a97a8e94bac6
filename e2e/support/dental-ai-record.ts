import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import sharp from 'sharp';
import type { DentalAiResult, ImageKind, OralPhoto } from '@dental/contracts';
import { expect, type TestAccount } from './fixtures';
import { square } from './red-square';
import { storeImage } from './stored-photos';

/** A panoramic-shaped X-ray (2:1) with the red square the journeys' caries X-ray model (the API
 *  tests' fixture) boxes: shown about 330 px wide on a phone. */
export function panoramicWithRedSquare(): Promise<Buffer> {
  return sharp({
    create: { width: 1280, height: 640, channels: 3, background: { r: 90, g: 90, b: 90 } },
  })
    .composite([
      {
        input: {
          create: { width: square.side, height: square.side, channels: 3, background: '#f00' },
        },
        left: square.left,
        top: square.top,
      },
    ])
    .png()
    .toBuffer();
}

// A held-out photo of the cavity photo data set (training/split-photos.json, test), for the
// shipped photo model and its recorded figures; journeys with it run only where the data set is.
const photoDataset = path.resolve(
  import.meta.dirname,
  '../../../shared/datasets/dental-cavity-photos',
);
export const heldOutPhotoPath = path.join(
  photoDataset,
  'train/images/101_0758_JPG_jpg.rf.9e792a871b82e7c9ae3dafd51895aaa1.jpg',
);
export const hasPhotoDataset = existsSync(photoDataset);

/** Stores the held-out cavity photo as the member's photo of today. */
export function storeHeldOutPhoto(request: APIRequestContext, account: TestAccount) {
  return storeImage(request, account, {
    image: readFileSync(heldOutPhotoPath),
    photoType: 'Photo',
  });
}

/** From the photo list, opens the stored photo's card and runs 'Check for caries' on it;
 *  resolves on the result. */
export async function checkForCaries(page: Page, photo: OralPhoto, tap = true) {
  await page.goto('/oral-photo');
  const card = page.getByRole('button', { name: `${photo.shoot_date} ${photo.photo_type}` });
  await (tap ? card.tap() : card.click());
  const run = page.getByRole('button', {
    name: `Check for caries: ${photo.photo_type} of ${photo.shoot_date}`,
  });
  await (tap ? run.tap() : run.click());
  await expect(page).toHaveURL(/\/dental-ai\/result\/[0-9a-f-]+$/);
  await expect(page.getByRole('heading', { name: 'Caries Result', level: 1 })).toBeVisible();
}

/**
 * A shipped model's recorded figures for one class, as the API adds them to a result
 * (`model_figures`): read from its metrics file, so a journey's expected words follow the model
 * that ships rather than numbers copied by hand.
 */
export function recordedFigures(
  model: string,
  className: string,
  imageKind: ImageKind,
): NonNullable<DentalAiResult['model_figures']> {
  const metrics = JSON.parse(
    readFileSync(path.resolve(import.meta.dirname, `../../models/${model}.metrics.json`), 'utf8'),
  ) as { product: Omit<NonNullable<DentalAiResult['model_figures']>, 'image_kind'> };
  const measured = metrics.product.classes[className];
  if (measured === undefined) throw new Error(`${model} has no figures for ${className}.`);
  return { ...metrics.product, classes: { [className]: measured }, image_kind: imageKind };
}

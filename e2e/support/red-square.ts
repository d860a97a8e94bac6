import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { imageKindLabels } from '@dental/contracts';
import { expect } from './fixtures';

// scripts/e2e-server.mjs serves caries with the API tests' fixture model, which boxes every
// 8-pixel cell of its 64-pixel input that is pure red. This image is scaled by 0.1 to that
// input, so its red square comes back as boxes covering exactly the square.
export const imageSide = 640;
export const square = { left: 160, top: 160, side: 160 };

/** A red square on a warm white: two hues, so the kind rule reads it as a colour photo. */
export function redSquarePng(): Promise<Buffer> {
  const warmWhite = { r: 244, g: 239, b: 230 };
  const red = { r: 255, g: 0, b: 0 };
  return sharp({
    create: { width: imageSide, height: imageSide, channels: 3, background: warmWhite },
  })
    .composite([
      {
        input: {
          create: { width: square.side, height: square.side, channels: 3, background: red },
        },
        left: square.left,
        top: square.top,
      },
    ])
    .png()
    .toBuffer();
}

export const picker = (page: Page) => page.getByLabel('Step 2: Upload an image');
export const preview = (page: Page) =>
  page.getByRole('img', { name: 'Preview of the chosen image' });
export const kindChoice = (page: Page, kind: keyof typeof imageKindLabels) =>
  page.getByRole('radio', { name: imageKindLabels[kind] });

export async function chooseRedSquare(page: Page) {
  await picker(page).setInputFiles({
    name: 'red-square.png',
    mimeType: 'image/png',
    buffer: await redSquarePng(),
  });
  await expect(preview(page)).toBeVisible();
}

/** The red square reads as a colour photo; the fixture model is the server's X-ray
 *  model, so the member's correction sends the image there: the correction wins. */
export async function sayItIsAnXray(page: Page) {
  await expect(kindChoice(page, 'photo')).toBeChecked();
  await kindChoice(page, 'xray').check();
}

export async function openForm(page: Page) {
  await page.goto('/dental-ai');
  await expect(page.getByRole('heading', { name: 'Dental AI', level: 1 })).toBeVisible();
  await expect(page.getByRole('radio', { name: 'Caries' })).toBeChecked();
}

/** Runs a caries detection on the red-square image; resolves on the result view. */
export async function detectRedSquare(page: Page) {
  await chooseRedSquare(page);
  await sayItIsAnXray(page);
  await page.getByRole('button', { name: 'Start Detection' }).click();
  await expect(page.getByRole('heading', { name: 'Caries Result', level: 1 })).toBeVisible();
  await expect(page).toHaveURL(/\/dental-ai\/result\/[0-9a-f-]{36}$/);
}

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, logIn, test } from './support/fixtures';

// On a fresh server, 'Wisdom Teeth' runs the model shipped in models/
// (docs/decisions/dental-ai-shipped-model.md; the journeys' server gives caries a test fixture,
// not wisdom teeth). The panoramic is a held-out test image of the data set in shared/, so this
// journey runs only where the data set is.
const dataset = path.resolve(import.meta.dirname, '../../shared/datasets/dental-xray-4class');
const heldOutPanoramic = 'data/test/images/0083_jpg.rf.6f4db2bc7398ae866ea996457feaa0c0.jpg';

test.skip(!existsSync(dataset), 'the dental X-ray data set is not on this machine');

test('finds impacted teeth on a held-out panoramic with the shipped model', async ({
  page,
  account,
}) => {
  await logIn(page, account);
  await page.goto('/dental-ai');
  await page.getByRole('radio', { name: 'Wisdom Teeth (Panel X-Ray Only)' }).check();
  await page.getByLabel('Step 2: Upload an image').setInputFiles({
    name: 'panoramic.jpg',
    mimeType: 'image/jpeg',
    buffer: readFileSync(path.join(dataset, heldOutPanoramic)),
  });
  await page.getByRole('button', { name: 'Start Detection' }).click();

  await expect(page.getByRole('heading', { name: 'Wisdom Teeth Result', level: 1 })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Findings' })).toContainText('Impacted Tooth');
  const boxes = page.locator('svg rect');
  expect(await boxes.count()).toBeGreaterThan(0);
  for (const box of await boxes.all()) await expect(box).toHaveAttribute('stroke', 'red');
  // The data set's credit waits under 'About this result', with the model's name and version.
  await page.getByText('About this result').click();
  await expect(page.getByText(/CC BY 4\.0/)).toBeVisible();
});

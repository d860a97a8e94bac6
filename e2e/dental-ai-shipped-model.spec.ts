import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { measuredSentences, tierSentence } from '@dental/contracts';
import { recordedFigures } from './support/dental-ai-record';
import { expect, logIn, test } from './support/fixtures';
import { checkScreen, phoneViewport } from './support/layout-checks';
import { asMemberOfOwnServer } from './support/own-server';

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

// A held-out panoramic on which the shipped X-ray model marks one area as likely and another as
// possible (training/split.json, test). The data set labels no cavity on it: this journey checks
// how the tiers are shown, the model card how often they are right.
const twoTierPanoramic = 'data/train/images/0856_jpg.rf.eee9c3d04eb7c2dc99d73136012ff027.jpg';

test.describe('on a phone with touch', () => {
  test.use({ viewport: phoneViewport, hasTouch: true });

  test('marks caries on a held-out X-ray in two tiers, with the measured figures of each', async ({
    page,
    playwright,
  }) => {
    test.setTimeout(180_000);
    await asMemberOfOwnServer(page, playwright, async (url) => {
      await page.goto(`${url}/dental-ai`);
      await page.getByLabel('Step 2: Upload an image').setInputFiles({
        name: 'panoramic.jpg',
        mimeType: 'image/jpeg',
        buffer: readFileSync(path.join(dataset, twoTierPanoramic)),
      });
      await page.getByRole('button', { name: 'Start Detection' }).tap();
      await expect(page.getByRole('heading', { name: 'Caries Result', level: 1 })).toBeVisible();

      // One solid 'likely' box and one dashed 'possible' one, counted in the legend.
      await expect(page.getByRole('list', { name: 'Findings' })).toContainText(
        'Cavity: 2 red boxes (1 likely, 1 possible)',
      );
      const dashes = await page
        .locator('main svg rect')
        .evaluateAll((rects) => rects.map((rect) => rect.getAttribute('stroke-dasharray')));
      expect(dashes.sort()).toEqual(['8 5', null]);
      const figures = recordedFigures('dental-xray-416', 'Cavity', 'xray');
      const { Cavity: cavity } = figures.classes;
      if (cavity === undefined) throw new Error('The X-ray model has no Cavity figures.');
      expect(cavity.likely_from).toBeGreaterThan(cavity.possible_from);
      await expect(page.getByText(tierSentence(cavity))).toBeVisible();
      await page.getByText('About this result').tap();
      for (const sentence of measuredSentences(figures)) {
        await expect(page.getByText(sentence)).toBeVisible();
      }
      await checkScreen(page, 'X-ray result in two tiers');
    });
  });
});

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { test } from '../support/fixtures';
import { asMemberOfOwnServer } from '../support/own-server';
import { shoot } from './shoot';

// The README's Dental AI screenshots: the shipped models on held-out images of the two data sets
// (both CC BY 4.0), one where the model agrees with the data set's labels and one where it misses
// (docs/decisions/dental-ai-operating-points.md). The journeys' server gives caries on X-rays a
// test fixture, so a server of its own runs the shipped models.
const datasets = path.resolve(import.meta.dirname, '../../../shared/datasets');
const heldOut = {
  // One labelled cavity, marked 'likely', and nothing else.
  xrayFound:
    'dental-xray-4class/data/train/images/0135_jpg.rf.7407e1bb6989274ce71a1c5d1e0bba9b.jpg',
  // One labelled cavity, missed; one 'possible' box where no cavity is labelled.
  xrayMissed:
    'dental-xray-4class/data/train/images/0465_jpg.rf.4e5117da4eeae543538408a30ec691b0.jpg',
  // Both labelled cavities marked, and one box on a tooth labelled sound.
  photoFound: 'dental-cavity-photos/train/images/37_jpg.rf.73a70c50fa63323351ebd832593ac52e.jpg',
};

async function detectCaries(page: Page, url: string, image: string) {
  await page.goto(`${url}/dental-ai`);
  await page.getByLabel('Step 2: Upload an image').setInputFiles({
    name: path.basename(image),
    mimeType: 'image/jpeg',
    buffer: readFileSync(path.join(datasets, image)),
  });
  await page.getByRole('button', { name: 'Start Detection' }).click();
  await page.getByRole('heading', { name: 'Caries Result', level: 1 }).waitFor();
}

test('Dental AI on real held-out images', async ({ page, playwright }) => {
  test.skip(
    Object.values(heldOut).some((image) => !existsSync(path.join(datasets, image))),
    'the data sets are not on this machine',
  );
  test.setTimeout(240_000);
  await asMemberOfOwnServer(page, playwright, async (url) => {
    for (const [screen, image] of [
      ['dental-ai-xray-found', heldOut.xrayFound],
      ['dental-ai-xray-missed', heldOut.xrayMissed],
      ['dental-ai-photo-found', heldOut.photoFound],
    ] as const) {
      await detectCaries(page, url, image);
      await shoot(page, screen, page.getByRole('heading', { name: 'Caries Result', level: 1 }));
    }
  });
});

import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { zipSync } from 'fflate';
import { makeDicom } from '../apps/api/test/fixtures/dicom-test-files';
import { openAddScreen } from './support/add-screen';
import { expect, logIn, test, type TestAccount } from './support/fixtures';
import { expectNoAxeViolations, expectNoSidewaysScroll } from './support/layout-checks';

const addPhotoUrl = /\/oral-photo\/add$/;

/** A 96 × 64 panoramic X-ray, 12 bits stored, a left-to-right ramp; written with dcmjs. */
function panoramic(studyDate = '20250314'): Buffer {
  const width = 96;
  const height = 64;
  return makeDicom({
    width,
    height,
    values: Array.from({ length: width * height }, (_, index) =>
      Math.round(((index % width) / (width - 1)) * 4095),
    ),
    bitsStored: 12,
    windowCenter: 2048,
    windowWidth: 4096,
    modality: 'PX',
    studyDate,
  });
}

async function checked(page: Page, screen: string) {
  await expectNoSidewaysScroll(page, screen);
  await expectNoAxeViolations(page, screen);
}

/** Add Photo with a DICOM file, from choosing it to the rendered X-ray and its original. */
async function importDicom(page: Page, account: TestAccount, width: string) {
  await logIn(page, account);
  await page.goto('/oral-photo');
  await openAddScreen(page, addPhotoUrl);
  await expect(page.getByText('or DICOM X-rays (.dcm) up to 10 MB')).toBeVisible();
  const dicom = panoramic();
  await page
    .getByLabel('Image')
    .setInputFiles({ name: 'IM000001.dcm', mimeType: 'application/dicom', buffer: dicom });
  await expect(page.getByText('DICOM X-ray chosen')).toBeVisible();
  // Dated by the study unless the member enters a date.
  await expect(page.getByLabel('Shoot date')).toHaveValue('');
  await expect(
    page.getByText('Leave empty to use the study date from the DICOM file.'),
  ).toBeVisible();
  await checked(page, `add photo with a DICOM file (${width})`);
  await page.getByRole('button', { name: 'Save' }).click();

  await expect(page).toHaveURL(/\/oral-photo$/);
  await page.getByRole('button', { name: '2025-03-14 X-ray' }).click();
  const rendered = page.getByRole('img', { name: 'X-ray of 2025-03-14' });
  await expect(rendered).toBeVisible();
  await expect
    .poll(() => rendered.evaluate((image: HTMLImageElement) => image.naturalWidth))
    .toBe(96);
  await checked(page, `photo list with the imported X-ray (${width})`);

  // The rendered PNG in the full-screen viewer.
  await page.getByRole('button', { name: 'View', exact: true }).click();
  const viewer = page.getByRole('dialog', { name: 'Lightbox' });
  await expect(viewer.getByText('X-ray of 2025-03-14')).toBeVisible();
  await expect(viewer.getByRole('button', { name: 'Zoom in' })).toBeEnabled();
  await checked(page, `viewer with the imported X-ray (${width})`);
  await page.keyboard.press('Escape');
  await expect(viewer).toBeHidden();

  // The original, byte for byte.
  const downloading = page.waitForEvent('download');
  await page
    .getByRole('link', { name: 'Download original DICOM file of X-ray of 2025-03-14' })
    .click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('X-ray-2025-03-14.dcm');
  expect((await readFile(await download.path())).equals(dicom)).toBe(true);

  // A clinic's disc folder as a zip: every X-ray in it, each on its own.
  await page.getByRole('link', { name: '+Add' }).click();
  await expect(page).toHaveURL(addPhotoUrl);
  const disc = zipSync({
    'DISC/DICOMDIR': panoramic('20250321'),
    'DISC/DICOM/IM000001': panoramic('20250321'),
    'DISC/DICOM/IM000002': panoramic('20250321'),
  });
  await page
    .getByLabel('Image')
    .setInputFiles({ name: 'disc.zip', mimeType: 'application/zip', buffer: Buffer.from(disc) });
  await expect(page.getByText('2 DICOM X-rays found in the zip file')).toBeVisible();
  await checked(page, `add photo with a zipped DICOM folder (${width})`);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/oral-photo$/);
  await expect(page.getByRole('button', { name: '2025-03-21 X-ray' })).toHaveCount(2);
}

test('imports a DICOM X-ray: rendered, dated by its study, original kept', async ({
  page,
  account,
}) => {
  test.setTimeout(240_000);
  await importDicom(page, account, 'desktop');
});

test.describe('at 360 px', () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test('imports a DICOM X-ray on a phone', async ({ page, account }) => {
    test.setTimeout(240_000);
    await importDicom(page, account, '360 px');
  });
});

import sharp from 'sharp';
import { oralPhotoPaths, unreadableImageMessage } from '@dental/contracts';
import { openAddScreen } from './support/add-screen';
import { localDate } from './support/dates';
import { expect, logIn, test } from './support/fixtures';
import { atNarrowWidth, checkScreen } from './support/layout-checks';

function molarPng(): Promise<Buffer> {
  return sharp({
    create: { width: 120, height: 80, channels: 3, background: { r: 200, g: 210, b: 230 } },
  })
    .png()
    .toBuffer();
}

const addPhotoUrl = /\/oral-photo\/add$/;

test('adds, filters, edits, downloads and deletes a photo', async ({ page, account }) => {
  const today = localDate();
  await logIn(page, account);
  await page.getByRole('link', { name: 'X-rays and Photos Storage' }).click();
  await expect(page).toHaveURL(/\/oral-photo\/?$/);
  await expect(page.getByText('No photos in this period.')).toBeVisible();

  await openAddScreen(page, addPhotoUrl);
  const picker = page.getByLabel('Image');
  // Over 5 MB and no image: refused in the browser before anything is sent (a real photo that
  // size is made to fit, docs/product/records.md#uploads).
  await picker.setInputFiles({
    name: 'huge.png',
    mimeType: 'image/png',
    buffer: Buffer.alloc(5 * 1024 * 1024 + 1),
  });
  await expect(page.getByRole('alert')).toHaveText(unreadableImageMessage);

  await picker.setInputFiles({
    name: 'molar.png',
    mimeType: 'image/png',
    buffer: await molarPng(),
  });
  await expect(page.getByRole('img', { name: 'Preview of the chosen image' })).toBeVisible();
  await expect(page.getByLabel('Image')).toHaveCount(0);
  await expect(page.getByRole('radio', { name: 'X-ray' })).toBeChecked();
  await expect(page.getByLabel('Shoot date')).toHaveValue(today);
  await page.getByLabel('Note').fill('Lower left molar');
  await page.getByRole('button', { name: 'Save' }).click();

  await expect(page).toHaveURL(/\/oral-photo$/);
  const card = page.getByRole('button', { name: `${today} X-ray` });
  await card.click();
  const thumbnail = page.getByRole('img', { name: `X-ray of ${today}` });
  await expect(thumbnail).toBeVisible();
  await expect
    .poll(() => thumbnail.evaluate((element: HTMLImageElement) => element.naturalWidth))
    .toBe(120);
  await expect(page.getByText('Lower left molar')).toBeVisible();

  // Type filter.
  await page.getByText('Photos', { exact: true }).click();
  await expect(page.getByText('No photos in this period.')).toBeVisible();
  await page.getByText('X-rays', { exact: true }).click();
  await expect(card).toBeVisible();
  // Date filter: a range that starts after today hides it.
  const tomorrow = new Date(Date.now() + 24 * 60 * 60 * 1000);
  await page.getByLabel('From', { exact: true }).fill(localDate(tomorrow));
  await expect(page.getByText('No photos in this period.')).toBeVisible();
  await page.getByLabel('From', { exact: true }).fill(today);
  await expect(card).toBeVisible();

  // Edit (the card is still open).
  await page.getByRole('link', { name: 'Edit' }).click();
  await expect(page).toHaveURL(/\/oral-photo\/[0-9a-f-]+\/edit$/);
  await expect(page.getByRole('heading', { name: 'Edit Photo' })).toBeVisible();
  await page.getByRole('radio', { name: 'Photo' }).check();
  await page.getByLabel('Note').fill('After the filling');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/oral-photo$/);
  const edited = page.getByRole('button', { name: `${today} Photo` });
  await edited.click();
  await expect(page.getByText('After the filling')).toBeVisible();

  // Download the original.
  const downloading = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`Photo-${today}.png`);

  // Delete, after confirming.
  await page.getByRole('button', { name: 'Delete' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete photo' });
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('No photos in this period.')).toBeVisible();
});

test('every photo screen is accessible and fits 360 px', async ({ page, account }) => {
  // axe runs twice on each of six screens: slow on a shared two-core machine.
  test.setTimeout(300_000);
  await logIn(page, account);
  await page.goto('/oral-photo');
  await expect(page.getByText('No photos in this period.')).toBeVisible();
  await checkScreen(page, 'photo list (empty)');

  await openAddScreen(page, addPhotoUrl, () => checkScreen(page, 'add photo disclaimer'));
  await checkScreen(page, 'add photo form');
  await page
    .getByLabel('Image')
    .setInputFiles({ name: 'molar.png', mimeType: 'image/png', buffer: await molarPng() });
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/oral-photo$/);

  await page.getByRole('button', { name: /X-ray/ }).click();
  await expect(page.getByRole('img', { name: /^X-ray of / })).toBeVisible();
  await checkScreen(page, 'photo list with an open card');
  await page.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('dialog', { name: 'Delete photo' })).toBeVisible();
  await checkScreen(page, 'delete photo confirmation');
  await page.getByRole('button', { name: 'Cancel' }).click();

  await page.getByRole('link', { name: 'Edit' }).click();
  await expect(page.getByRole('img', { name: 'The stored image' })).toBeVisible();
  await checkScreen(page, 'edit photo');
});

test('the Compare and Share bars leave Load more in sight on a phone', async ({
  page,
  account,
}) => {
  // A first page of 30 with a link to more, answered here: 31 uploads would take the API's
  // upload limit of a minute to store.
  const photos = Array.from({ length: 30 }, (_, at) => ({
    id: `1f0c6a2e-7b41-4c1e-9a52-${String(at).padStart(12, '0')}`,
    shoot_date: localDate(),
    date: new Date().toISOString(),
    photo_type: 'X-ray',
    image_link: '/missing.png',
    thumbnail_link: '/missing.webp',
    original_link: null,
    capture_set_id: null,
    capture_view: null,
    note: '',
    teeth: [],
  }));
  await page.route(`**${oralPhotoPaths.list}?*`, (route) =>
    route.fulfill({
      json: photos,
      headers: { link: `<${oralPhotoPaths.list}?limit=30&offset=30>; rel="next"` },
    }),
  );
  await logIn(page, account);
  await page.goto('/oral-photo');
  const loadMore = page.getByRole('button', { name: 'Load more photos and X-rays' });

  await atNarrowWidth(page, async () => {
    for (const [bar, open] of [
      [
        'Photos to compare',
        () =>
          page
            .getByRole('checkbox', { name: /^Compare/ })
            .first()
            .check(),
      ],
      ['Choose what to share', () => page.getByRole('button', { name: 'Share' }).click()],
    ] as const) {
      await open();
      await page.mouse.wheel(0, 100_000);
      const barTop = (await page.getByRole('region', { name: bar }).boundingBox())?.y ?? 0;
      const button = await loadMore.boundingBox();
      expect(button, bar).not.toBeNull();
      expect((button?.y ?? 0) + (button?.height ?? 0), bar).toBeLessThan(barTop);
    }
  });
});

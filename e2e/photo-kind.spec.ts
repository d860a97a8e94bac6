import sharp from 'sharp';
import { openAddScreen } from './support/add-screen';
import { localDate } from './support/dates';
import { expect, logIn, test } from './support/fixtures';
import { checkScreen } from './support/layout-checks';
import { redSquarePng } from './support/red-square';

// A new patient's colour photo was saved as an X-ray: the Add form's type started at X-ray
// (SPEC's default) whatever the image. It now starts there and is then set from the image's
// pixels, by the Dental AI form's rule, unless the member chose; and Compare pairs any two
// images, so a photo sits beside an X-ray (docs/product/records.md). On a phone with touch.
test.use({ hasTouch: true });

const addPhotoUrl = /\/oral-photo\/add$/;

/** One grey: an X-ray by the rule (no hue varies). */
const greyPng = () =>
  sharp({
    create: { width: 160, height: 120, channels: 3, background: { r: 128, g: 128, b: 128 } },
  })
    .png()
    .toBuffer();

test('a colour photo is added as a Photo, an X-ray as an X-ray, and the two compare', async ({
  page,
  account,
}) => {
  const today = localDate();
  await logIn(page, account);
  await page.goto('/oral-photo');
  const typeRadio = (name: 'X-ray' | 'Photo') => page.getByRole('radio', { name, exact: true });

  await openAddScreen(page, addPhotoUrl);
  await expect(typeRadio('X-ray')).toBeChecked();
  await page.getByLabel('Image').setInputFiles({
    name: 'smile.png',
    mimeType: 'image/png',
    buffer: await redSquarePng(),
  });
  await expect(page.getByRole('img', { name: 'Preview of the chosen image' })).toBeVisible();
  await expect(typeRadio('Photo')).toBeChecked();
  await expect(
    page.getByText('From the image, this looks like a colour photo. Change it if that is wrong.'),
  ).toBeVisible();
  await checkScreen(page, 'add photo, the type read from the image');
  await page.getByRole('button', { name: 'Save' }).tap();
  await expect(page).toHaveURL(/\/oral-photo$/);

  // The disclaimer was accepted once this session.
  await page.getByRole('link', { name: '+Add' }).tap();
  await expect(page).toHaveURL(addPhotoUrl);
  // The member's choice wins over the pixels.
  await typeRadio('Photo').tap();
  await page.getByLabel('Image').setInputFiles({
    name: 'panoramic.png',
    mimeType: 'image/png',
    buffer: await greyPng(),
  });
  await expect(page.getByText(/this looks like an X-ray/)).toBeVisible();
  await expect(typeRadio('Photo')).toBeChecked();
  await typeRadio('X-ray').tap();
  await page.getByRole('button', { name: 'Save' }).tap();
  await expect(page).toHaveURL(/\/oral-photo$/);

  const compare = page.getByRole('checkbox', { name: /^Compare/ });
  await expect(compare).toHaveCount(2);
  await compare.nth(0).tap();
  await expect(compare.nth(1)).toBeEnabled();
  await compare.nth(1).tap();
  await expect(page.getByText(`${today} and ${today} picked.`, { exact: true })).toBeVisible();
  await page
    .getByRole('region', { name: 'Photos to compare' })
    .getByRole('button', { name: 'Compare' })
    .tap();
  const dialog = page.getByRole('dialog', { name: 'Compare a photo and an X-ray' });
  await expect(dialog).toBeVisible();
  // The bar that opened it is gone: on a phone it covered the second image.
  await expect(page.getByRole('region', { name: 'Photos to compare' })).toBeHidden();
  await expect(dialog.getByRole('img', { name: `Photo of ${today}` })).toBeVisible();
  await expect(dialog.getByRole('img', { name: `X-ray of ${today}` })).toBeVisible();
  await checkScreen(page, 'compare a photo and an X-ray');
});

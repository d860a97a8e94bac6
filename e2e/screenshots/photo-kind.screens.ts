import { openAddScreen } from '../support/add-screen';
import { expect, logIn, test } from '../support/fixtures';
import { redSquarePng } from '../support/red-square';
import { shoot } from './shoot';

// Add Photo with the type read from a colour photo, and a photo compared with an X-ray
// (docs/product/records.md#add-and-edit-a-photo).
test('the photo type read from the image, and a mixed comparison', async ({ page, account }) => {
  await logIn(page, account);
  await page.goto('/oral-photo');
  await openAddScreen(page, /\/oral-photo\/add$/);
  await page.getByLabel('Image').setInputFiles({
    name: 'smile.png',
    mimeType: 'image/png',
    buffer: await redSquarePng(),
  });
  const read = page.getByText(/this looks like a colour photo/);
  await expect(read).toBeVisible();
  await shoot(page, 'photo-add-type-read', read);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/oral-photo$/);

  await page.getByRole('link', { name: '+Add' }).click();
  await page.getByLabel('Image').setInputFiles({
    name: 'xray.png',
    mimeType: 'image/png',
    buffer: await redSquarePng(),
  });
  await page.getByRole('radio', { name: 'X-ray', exact: true }).check();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/oral-photo$/);

  const compare = page.getByRole('checkbox', { name: /^Compare/ });
  await expect(compare).toHaveCount(2);
  await compare.nth(0).check();
  await compare.nth(1).check();
  await page.getByRole('button', { name: 'Compare', exact: true }).click();
  await expect(page.getByRole('dialog', { name: 'Compare a photo and an X-ray' })).toBeVisible();
  await shoot(page, 'photo-comparison-mixed');
});

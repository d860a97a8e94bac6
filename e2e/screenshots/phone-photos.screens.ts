import { openAddScreen } from '../support/add-screen';
import { expect, logIn, test } from '../support/fixtures';
import { cameraJpeg, heicPhoto } from '../support/phone-photos';
import { shoot } from './shoot';

// Phone photos on Add Photo, Add New Records and Dental AI: a camera JPEG resized in the browser
// and a HEIC photo converted (docs/decisions/phone-photos.md).
test('a resized camera photo and a converted HEIC photo', async ({ page, account }) => {
  await logIn(page, account);
  await page.goto('/oral-photo');
  await openAddScreen(page, /\/oral-photo\/add$/);
  await page.getByLabel('Image').setInputFiles({
    name: 'IMG_0001.JPG',
    mimeType: 'image/jpeg',
    buffer: await cameraJpeg(),
  });
  const resized = page.getByText('Resized to 1920 × 2560 to fit the 5 MB limit.');
  await expect(resized).toBeVisible();
  await shoot(page, 'photo-add-resized', resized);

  await page.goto('/medical-records/add');
  await page.getByLabel('Title').fill('Gum photo');
  await page.getByLabel('Files').setInputFiles(await heicPhoto());
  const converted = page.getByText('Converted from HEIC to JPEG.');
  await expect(converted).toBeVisible();
  await shoot(page, 'record-add-heic', converted);
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('button', { name: /^Gum photo/ }).click();
  await page.getByRole('link', { name: 'Edit' }).click();
  await page.getByLabel('Upload a file').setInputFiles(await heicPhoto());
  const added = page.getByText('IMG_0002.jpg: Converted from HEIC to JPEG.');
  await expect(added).toBeVisible();
  await shoot(page, 'record-detail-heic', added);

  await page.goto('/dental-ai');
  await page.getByLabel('Step 2: Upload an image').setInputFiles(await heicPhoto());
  await expect(converted).toBeVisible();
  await shoot(page, 'dental-ai-heic', converted);
});

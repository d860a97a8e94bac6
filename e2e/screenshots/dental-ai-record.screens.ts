import { expect, logIn, test } from '../support/fixtures';
import {
  checkForCaries,
  hasPhotoDataset,
  panoramicWithRedSquare,
  storeHeldOutPhoto,
} from '../support/dental-ai-record';
import { storeImage } from '../support/stored-photos';
import { shoot } from './shoot';

// Dental AI inside the record (docs/product/dental-ai.md#on-a-stored-image): the photo card's
// Dental AI part, a result on a stored panoramic X-ray, and a result of the shipped photo model
// with its tier words, zoomed in the viewer, and its measured figures.
test('Dental AI on stored images', async ({ page, account, request }) => {
  test.setTimeout(240_000);
  const xray = await storeImage(request, account, {
    image: await panoramicWithRedSquare(),
    photoType: 'X-ray',
  });
  await logIn(page, account);
  await checkForCaries(page, xray, false);
  await shoot(page, 'dental-ai-stored-xray-result');
  await page.getByRole('link', { name: `X-ray of ${xray.shoot_date}` }).click();
  const section = page.getByRole('region', { name: 'Dental AI' });
  await expect(section.getByRole('link', { name: /^Caries Result of / })).toBeVisible();
  await shoot(page, 'photo-card-dental-ai', section);

  if (!hasPhotoDataset) return;
  const photo = await storeHeldOutPhoto(request, account);
  await checkForCaries(page, photo, false);
  await shoot(page, 'dental-ai-tiers');
  // Zoomed, the words keep their size and come apart over the grown image.
  await page.getByRole('button', { name: 'Zoom', exact: true }).click();
  const viewer = page.getByRole('dialog', { name: 'Lightbox' });
  await viewer.getByRole('button', { name: 'Zoom in' }).click();
  await viewer.getByRole('button', { name: 'Zoom in' }).click();
  await shoot(page, 'dental-ai-result-zoomed');
  await viewer.getByRole('button', { name: 'Close' }).click();
  await page.getByText('About this result').click();
  await shoot(page, 'dental-ai-measured-figures', page.getByText('About this result'));
});

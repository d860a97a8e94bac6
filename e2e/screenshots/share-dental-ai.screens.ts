import { checkForCaries, panoramicWithRedSquare } from '../support/dental-ai-record';
import { expect, logIn, test } from '../support/fixtures';
import { storeImage } from '../support/stored-photos';
import { shoot } from './shoot';

// A Dental AI result shared with a dentist (docs/product/sharing.md): chosen among the past
// results, the share dialog, the Shared links list, and the dentist's page with the result.
test('Dental AI results in a share link', async ({ page, account, request }) => {
  test.setTimeout(180_000);
  const xray = await storeImage(request, account, {
    image: await panoramicWithRedSquare(),
    photoType: 'X-ray',
  });
  await logIn(page, account);
  await checkForCaries(page, xray, false);
  await page.goto('/dental-ai');
  const past = page.getByRole('region', { name: 'Your past results' });
  const name = (await past.getByRole('link', { name: /^Caries Result of / }).innerText()).trim();
  await past.getByRole('button', { name: 'Share', exact: true }).click();
  await past.getByRole('checkbox', { name: `Share ${name}` }).check();
  await shoot(page, 'dental-ai-share-choosing', past);
  await page.getByRole('button', { name: 'Share…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Share with a dentist' });
  await dialog.getByRole('textbox', { name: 'Label' }).fill('For Dr. Patel');
  await shoot(page, 'dental-ai-share-dialog');
  await dialog.getByRole('button', { name: 'Create link' }).click();
  const ready = page.getByRole('dialog', { name: 'Your link is ready' });
  const url = await ready.getByRole('textbox', { name: 'Link to share' }).inputValue();
  await ready.getByRole('button', { name: 'Done' }).click();
  await page.goto('/account/shared-links');
  await expect(page.getByText('1 Dental AI result')).toBeVisible();
  await shoot(page, 'shared-links-dental-ai');
  await page.goto(new URL(url).pathname);
  const results = page.getByRole('region', { name: 'Dental AI results' });
  await expect(results.getByRole('img', { name: /areas? marked$/ })).toBeVisible();
  await shoot(page, 'shared-page-dental-ai', results);
});

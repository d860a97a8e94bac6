import { localDate } from './support/dates';
import { expect, logIn, test } from './support/fixtures';
import { checkScreen } from './support/layout-checks';
import { storeXray } from './support/stored-photos';

test('the Profile’s Account activity shows, in plain words, the photo just opened', async ({
  page,
  request,
  account,
}) => {
  // An X-ray stored through the API, so the journey's own steps are the ones on the trail.
  await storeXray(request, account, 'Upper right molar');
  const today = localDate();

  await logIn(page, account);
  await page.goto('/oral-photo');
  await page.getByRole('button', { name: `${today} X-ray` }).click();
  await page.getByRole('link', { name: 'Edit' }).click();
  await expect(page.getByRole('heading', { name: 'Edit Photo' })).toBeVisible();

  await page.goto('/account');
  await page.getByRole('link', { name: 'Show account activity' }).click();
  await expect(page).toHaveURL(/\/account\/activity$/);
  await expect(page.getByRole('heading', { name: 'Account activity' })).toBeVisible();
  const entries = page.getByRole('list', { name: 'Account activity, newest first' });
  // Newest first: the photo opened for editing, after the list viewed and the sign-in.
  await expect(entries.getByRole('listitem').first()).toContainText('You opened an X-ray');
  await expect(entries.getByText('You viewed your photos and X-rays').first()).toBeVisible();
  await expect(entries.getByText('Signed in from a new browser').first()).toBeVisible();
  // Health content stays out: the note is not on the trail.
  await expect(page.getByText('Upper right molar')).toHaveCount(0);
  await checkScreen(page, 'account activity');
});

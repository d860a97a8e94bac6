import sharp from 'sharp';
import { accountPaths, oralPhotoPaths, type TokenPair } from '@dental/contracts';
import { localDate } from './support/dates';
import { expect, logIn, test } from './support/fixtures';
import { checkScreen } from './support/layout-checks';

test('the Profile’s Account activity shows, in plain words, the photo just opened', async ({
  page,
  request,
  account,
}) => {
  // An X-ray stored through the API, so the journey's own steps are the ones on the trail.
  const login = await request.post(accountPaths.login, {
    data: { login_type: 'native', email: account.email, password: account.password },
  });
  const { access } = (await login.json()) as TokenPair;
  const png = await sharp({
    create: { width: 60, height: 40, channels: 3, background: { r: 200, g: 210, b: 230 } },
  })
    .png()
    .toBuffer();
  const today = localDate();
  const stored = await request.post(oralPhotoPaths.list, {
    headers: { authorization: `Bearer ${access}` },
    data: {
      shoot_date: today,
      photo_type: 'X-ray',
      note: 'Upper right molar',
      image_link: `data:image/png;base64,${png.toString('base64')}`,
    },
  });
  expect(stored.status(), await stored.text()).toBe(201);

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

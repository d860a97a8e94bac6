import { expect, logIn, test } from './support/fixtures';
import {
  checkScreen,
  expectNoAxeViolations,
  expectNoSidewaysScroll,
} from './support/layout-checks';
import { storeXray } from './support/stored-photos';

// The member shares from a desktop (each screen also checked at 360 px) and the dentist opens the
// link on a phone: both widths in one journey, which runs once.
const phone = { width: 360, height: 740 };

test('share links: an X-ray shared with a passcode, opened on a phone without an account, then revoked', async ({
  page,
  account,
  request,
  browser,
}) => {
  test.setTimeout(240_000);
  const xray = await storeXray(request, account, 'Lower left molar');
  const xrayName = `X-ray of ${xray.shoot_date}`;
  const check = (screen: string) => checkScreen(page, screen);

  // The member chooses the X-ray in the list and shares it.
  await logIn(page, account);
  await page.goto('/oral-photo');
  await page.getByRole('button', { name: 'Share', exact: true }).click();
  await page.getByRole('checkbox', { name: `Share ${xrayName}` }).check();
  const bar = page.getByRole('region', { name: 'Choose what to share' });
  await expect(bar).toContainText('1 photo or X-ray chosen.');
  await check('X-rays and photos, choosing what to share');
  await bar.getByRole('button', { name: 'Share…' }).click();

  const dialog = page.getByRole('dialog', { name: 'Share with a dentist' });
  await dialog.getByRole('textbox', { name: 'Label' }).fill('For Dr. Patel');
  await dialog.getByRole('combobox', { name: 'Link works for' }).selectOption('1 day');
  await dialog.getByLabel('Passcode (optional)').fill('molar-42');
  await check('Share dialog');
  await dialog.getByRole('button', { name: 'Create link' }).click();
  const ready = page.getByRole('dialog', { name: 'Your link is ready' });
  const url = await ready.getByRole('textbox', { name: 'Link to share' }).inputValue();
  expect(url).toMatch(/\/s\/[A-Za-z0-9_-]{43}$/);
  await check('Share dialog with the link');
  await ready.getByRole('button', { name: 'Done' }).click();
  await expect(ready).toBeHidden();
  await expect(bar).toBeHidden();

  // The dentist opens it in a browser that never signed in.
  const dentistContext = await browser.newContext({ viewport: phone });
  try {
    const dentist = await dentistContext.newPage();
    await dentist.goto(new URL(url).pathname);
    await expect(dentist.getByRole('heading', { name: 'Enter the passcode' })).toBeVisible();
    expect(await dentist.locator('meta[name="robots"]').getAttribute('content')).toBe(
      'noindex, nofollow',
    );
    await expectNoAxeViolations(dentist, 'Shared page asking for the passcode');
    await dentist.getByLabel('Passcode').fill('molar-41');
    await dentist.getByRole('button', { name: 'Open' }).click();
    await expect(dentist.getByText('That passcode is not right.')).toBeVisible();
    await dentist.getByLabel('Passcode').fill('molar-42');
    await dentist.getByRole('button', { name: 'Open' }).click();
    await expect(dentist.getByRole('heading', { name: 'For Dr. Patel', level: 1 })).toBeVisible();
    await expect(dentist.getByText(xrayName)).toBeVisible();
    await expect(dentist.getByText('Lower left molar')).toBeVisible();
    await expectNoSidewaysScroll(dentist, 'Shared page');
    await expectNoAxeViolations(dentist, 'Shared page');

    // The same viewer as the app: the original, with zoom and download.
    await dentist.getByRole('button', { name: `View ${xrayName} full screen` }).click();
    const shown = dentist.locator('.yarl__slide_current img.yarl__slide_image');
    await expect
      .poll(() => shown.evaluate((image: HTMLImageElement) => image.naturalWidth))
      .toBe(640);
    await expect(dentist.getByRole('button', { name: 'Zoom in' })).toBeVisible();
    await expect(dentist.getByRole('button', { name: 'Download' })).toBeVisible();
    await dentist.keyboard.press('Escape');

    // The member sees the opening, and revokes the link.
    await page.goto('/account');
    await page.getByRole('link', { name: 'Show shared links' }).click();
    await expect(page.getByRole('heading', { name: 'Shared links', level: 1 })).toBeVisible();
    const link = page.getByRole('listitem').filter({ hasText: 'For Dr. Patel' });
    await expect(link).toContainText('Opened 1 time');
    await expect(link).toContainText('1 photo or X-ray · with a passcode');
    await check('Shared links');
    await link.getByRole('button', { name: 'Revoke For Dr. Patel' }).click();
    const confirm = page.getByRole('dialog', { name: 'Revoke link' });
    await expect(confirm.getByRole('button', { name: 'Revoke' })).toBeVisible();
    await check('Revoke link dialog');
    await confirm.getByRole('button', { name: 'Revoke' }).click();
    await expect(confirm).toBeHidden();
    await expect(link).toContainText('Revoked');

    await page.goto('/account/activity');
    await expect(page.getByText('Your link ‘For Dr. Patel’ was opened')).toBeVisible();

    // The dentist's page now says so, and shows nothing.
    await dentist.reload();
    await expect(dentist.getByRole('heading', { name: 'This link no longer works' })).toBeVisible();
    await expect(dentist.getByText(xrayName)).toBeHidden();
    await expectNoAxeViolations(dentist, 'Shared page of a revoked link');
  } finally {
    await dentistContext.close();
  }
});

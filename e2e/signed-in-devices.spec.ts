import type { Browser, Page } from '@playwright/test';
import { changePasswordSuccess } from '@dental/contracts';
import {
  closeDialog,
  expect,
  fetchPublicConfig,
  logIn,
  test,
  type TestAccount,
} from './support/fixtures';
import { checkScreen } from './support/layout-checks';
import { mailTo } from './support/outbox';

const firefoxOnWindows =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';

/** A second device: its own browser context, signed in as `account`. */
async function signInElsewhere(browser: Browser, account: TestAccount): Promise<Page> {
  const context = await browser.newContext({ userAgent: firefoxOnWindows });
  const page = await context.newPage();
  await logIn(page, account);
  return page;
}

async function mailSubjects(email: string): Promise<string[]> {
  return (await mailTo(email)).map((mail) => mail.subject ?? '');
}

test('signing out another device, then changing the password, ends that device’s session', async ({
  page,
  browser,
  request,
  account,
}) => {
  // Two browsers, two sign-ins and two screen checks: longer than one journey's default.
  test.setTimeout(180_000);
  await logIn(page, account);
  const other = await signInElsewhere(browser, account);
  // The first sign-in after sign-up is not news; the second browser is. The sign-up's own mail
  // asked to confirm the address.
  await expect
    .poll(() => mailSubjects(account.email))
    .toEqual([
      expect.stringMatching(/^Confirm your e-mail address for /),
      expect.stringMatching(/^New sign-in to your .+ account$/),
    ]);

  await page.getByRole('link', { name: `Hi, ${account.username}` }).click();
  await page.getByRole('link', { name: 'Manage password and devices' }).click();
  await expect(page).toHaveURL(/\/account\/security$/);
  const devices = page.getByRole('list', { name: /^Signed-in devices/ });
  await expect(devices.getByRole('listitem')).toHaveCount(2);
  await expect(devices.getByRole('listitem').filter({ hasText: 'This device' })).toContainText(
    'Chrome on Linux',
  );
  await checkScreen(page, 'Password and devices');

  await devices.getByRole('button', { name: 'Sign out Firefox on Windows' }).click();
  await expect(devices.getByRole('listitem')).toHaveCount(1);
  await expect(page.getByRole('button', { name: 'Sign out everywhere else' })).toBeHidden();
  // The other device's next call is refused, and it lands on Login.
  await other.reload();
  await expect(other).toHaveURL(/\/login$/);

  const again = await signInElsewhere(browser, account);
  await page.reload();
  await expect(devices.getByRole('listitem')).toHaveCount(2);

  const current = page.getByRole('textbox', { name: 'Current Password' });
  const newPassword = `${account.password}-new`;
  await current.fill('not-the-password');
  await page.getByRole('textbox', { name: 'New Password', exact: true }).fill(newPassword);
  await page.getByRole('textbox', { name: 'Confirm New Password' }).fill(newPassword);
  await page.getByRole('button', { name: 'Change password' }).click();
  const popup = page.getByRole('dialog', { name: 'Password not changed' });
  await expect(popup).toContainText('The current password is incorrect.');
  await closeDialog(popup);
  await expect(page.getByText('The current password is incorrect.')).toBeVisible();

  await current.fill(account.password);
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText(changePasswordSuccess)).toBeVisible();
  await expect(devices.getByRole('listitem')).toHaveCount(1);
  await expect
    .poll(() => mailSubjects(account.email))
    .toContain(`Your ${(await fetchPublicConfig(request)).company_name} password was changed`);
  await again.reload();
  await expect(again).toHaveURL(/\/login$/);
});

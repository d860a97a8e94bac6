import { expect, logIn, submitLogin, test } from './support/fixtures';
import { checkScreen } from './support/layout-checks';

// The e2e server asks for the password one minute after the sign-in (playwright.config.ts).
const recentSignInMs = 60_000;

test('deleting the account long after the sign-in asks for the password first', async ({
  page,
  account,
}) => {
  test.setTimeout(180_000);
  await logIn(page, account);
  const signedInAt = Date.now();
  await page.getByRole('link', { name: `Hi, ${account.username}` }).click();
  await expect(page.getByRole('heading', { name: 'Delete Data' })).toBeVisible();
  // The server's clock cannot be moved from here: wait until the sign-in is no longer recent.
  await new Promise((resolve) =>
    setTimeout(resolve, signedInAt + recentSignInMs + 1_000 - Date.now()),
  );

  await page.getByRole('button', { name: 'Delete Account and Data' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete Account and Data' });
  await confirm.getByRole('button', { name: 'Delete', exact: true }).click();

  const prompt = page.getByRole('dialog', { name: 'Confirm with your password' });
  await expect(prompt).toBeVisible();
  await expect(prompt).toContainText('please enter your password again to continue');
  // The refusal did not end the session.
  await expect(page).toHaveURL(/\/account$/);
  await checkScreen(page, 'password prompt before deletion');

  const password = prompt.getByRole('textbox', { name: 'Password' });
  await password.fill('not-the-password');
  await prompt.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(prompt.getByText('The password is incorrect.')).toBeVisible();
  await expect(page).toHaveURL(/\/account$/);

  await password.fill(account.password);
  await prompt.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(page).toHaveURL(/\/login$/);

  // Deactivated for real: the password now meets the deactivated-account message.
  await submitLogin(page, account);
  await expect(page.getByRole('dialog')).toContainText('deactivated');
});

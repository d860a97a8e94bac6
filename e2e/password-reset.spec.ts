import { forgetPasswordSuccess } from '@dental/contracts';
import { expect, logIn, test } from './support/fixtures';
import { waitForResetLink } from './support/outbox';

test('a patient resets a forgotten password from the e-mailed link and logs in with it', async ({
  page,
  account,
  baseURL,
}) => {
  await page.goto('/login');
  await page.getByRole('link', { name: 'Forgot Password?' }).click();
  await expect(page).toHaveURL(/\/forget-password$/);
  await expect(page.getByRole('heading', { name: 'Forgot password' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill(account.email);
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page.getByText(forgetPasswordSuccess)).toBeVisible();

  const link = await waitForResetLink(account.email, baseURL ?? '');
  await page.goto(link.toString());
  await expect(page.getByRole('heading', { name: 'Reset password' })).toBeVisible();
  const newPassword = `${account.password}-renewed`;
  await page.getByRole('textbox', { name: 'New Password', exact: true }).fill(newPassword);
  await page.getByRole('textbox', { name: 'Confirm New Password', exact: true }).fill(newPassword);
  await page.getByRole('button', { name: 'Update password' }).click();
  await expect(page).toHaveURL(/\/login$/);
  // Login says what happened (docs/decisions/patient-grade-defects.md).
  await expect(page.getByRole('alert')).toContainText('Password changed');

  await logIn(page, { ...account, password: newPassword });
});

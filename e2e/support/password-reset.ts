import type { Locator, Page } from '@playwright/test';
import type { TestAccount } from './fixtures';
import { waitForResetLink } from './outbox';

/**
 * Asks for a reset link on /forget-password, follows it out of the e-mail and sets a new
 * password; resolves on /login with the link (now used) and the new password. `press` is how
 * buttons are pressed (a click, or a tap with touch).
 */
export async function resetPassword(
  page: Page,
  account: TestAccount,
  publicUrl: string,
  press: (button: Locator) => Promise<void> = (button) => button.click(),
): Promise<{ link: URL; newPassword: string }> {
  await page.goto('/forget-password');
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill(account.email);
  await press(page.getByRole('button', { name: 'Reset Password' }));
  const link = await waitForResetLink(account.email, publicUrl);
  await page.goto(link.toString());
  const newPassword = `${account.password}-renewed`;
  await page.getByRole('textbox', { name: 'New Password', exact: true }).fill(newPassword);
  await page.getByRole('textbox', { name: 'Confirm New Password', exact: true }).fill(newPassword);
  await press(page.getByRole('button', { name: 'Update password' }));
  await page.waitForURL(/\/login$/);
  return { link, newPassword };
}

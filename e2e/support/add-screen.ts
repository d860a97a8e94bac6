import { expect, type Page } from '@playwright/test';

/** Follows '+Add' from a storage list to `url` and accepts the upload disclaimer the add screen
 *  opens with (docs/product/records.md#disclaimer-before-adding); `whileDisclaimerOpen` runs with
 *  the disclaimer on screen. */
export async function openAddScreen(
  page: Page,
  url: RegExp,
  whileDisclaimerOpen?: () => Promise<void>,
) {
  await page.getByRole('link', { name: '+Add' }).click();
  await expect(page).toHaveURL(url);
  const disclaimer = page.getByRole('dialog', { name: 'Disclaimer' });
  await expect(disclaimer).toBeVisible();
  await whileDisclaimerOpen?.();
  await disclaimer.getByRole('button', { name: 'I accept' }).click();
  await expect(disclaimer).toBeHidden();
}

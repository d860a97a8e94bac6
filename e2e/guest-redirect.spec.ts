import { expect, submitLogin, test } from './support/fixtures';

test('a guest opening /appointments logs in and lands on /appointments', async ({
  page,
  account,
}) => {
  await page.goto('/appointments');
  await expect(page).toHaveURL(/\/login$/);

  await submitLogin(page, account);

  // The section's own content belongs to its issue; here it is enough to arrive, signed in.
  await expect(page).toHaveURL(/\/appointments\/?$/);
  await expect(page.getByRole('link', { name: `Hi, ${account.username}` })).toBeVisible();
});

import type { Page } from '@playwright/test';
import { expect, logIn, test, type TestAccount } from './support/fixtures';
import { checkScreen, phoneViewport } from './support/layout-checks';

/** The refresh token a tab keeps in its session storage. */
const refreshOf = (page: Page) => page.evaluate(() => sessionStorage.getItem('dental.refresh'));

/**
 * The tab's access token as if its 15 minutes had passed: the API refuses it, and the tab's
 * next call (reloading shows the account) must refresh with the tab's own refresh token. The
 * tab is still signed in afterwards, holding a new refresh token.
 */
async function refreshIn(page: Page, account: TestAccount) {
  const before = await refreshOf(page);
  await page.evaluate(() => {
    sessionStorage.setItem('dental.access', 'expired');
  });
  await page.reload();
  await expect(page.getByRole('link', { name: `Hi, ${account.username}` })).toBeVisible();
  await expect.poll(() => refreshOf(page)).not.toBe(before);
}

test.describe('on a phone with touch', () => {
  test.use({ viewport: phoneViewport, hasTouch: true });

  test('a new tab of the same browser continues the session; Log out on any screen ends every tab', async ({
    page,
    account,
  }) => {
    test.setTimeout(180_000);
    await logIn(page, account);

    // A reminder's link opened in a new tab: the screen it names, with no second sign-in.
    const reminder = await page.context().newPage();
    await reminder.goto('/appointments');
    await expect(reminder).toHaveURL(/\/appointments\/?$/);
    await expect(reminder.getByRole('link', { name: `Hi, ${account.username}` })).toBeVisible();
    await expect(reminder.getByRole('button', { name: 'Log out' })).toBeVisible();
    await checkScreen(reminder, 'appointments in a new tab');

    // Each tab has its own refresh token of the one session, so refreshing in each, in turn,
    // never presents a token twice: both tabs stay signed in.
    expect(await refreshOf(reminder)).not.toBe(await refreshOf(page));
    await refreshIn(reminder, account);
    await refreshIn(page, account);
    await refreshIn(reminder, account);
    await page.reload();
    await expect(page.getByRole('heading', { name: 'You are ready to go!' })).toBeVisible();

    // Log out from a screen that is not Home signs out the other tab as well.
    await checkScreen(page, 'Home with Log out in the header');
    await reminder.getByRole('button', { name: 'Log out' }).tap();
    await expect(reminder).toHaveURL(/\/login$/);
    await expect(page).toHaveURL(/\/login$/);
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Log in', exact: true })).toBeVisible();

    // With no signed-in tab left, a new tab asks in vain and shows Login.
    const alone = await page.context().newPage();
    await alone.goto('/appointments');
    await expect(alone).toHaveURL(/\/login$/);
  });
});

import { expect, logIn, test } from '../support/fixtures';
import { shoot } from './shoot';

// Log out in every screen's header, and a reminder's link opened in a new tab of the same
// browser, signed in without asking (docs/decisions/session-handoff.md).
test('Log out in the header, and the session in a new tab', async ({ page, account }) => {
  await logIn(page, account);
  await shoot(page, 'header-log-out-home');
  const reminder = await page.context().newPage();
  await reminder.goto('/appointments');
  await expect(reminder.getByRole('link', { name: `Hi, ${account.username}` })).toBeVisible();
  await shoot(reminder, 'session-new-tab-appointments');
});

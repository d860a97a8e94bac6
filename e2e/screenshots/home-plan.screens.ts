import { expect, logIn, test } from '../support/fixtures';
import { shoot } from './shoot';

// Home's topic cards on the free plan and after an upgrade to Gold
// (docs/decisions/topic-card-lock.md).
test('Home on Silver and on Gold', async ({ page, account }) => {
  await logIn(page, account);
  const topics = page.getByRole('list', { name: 'Topics' });
  await expect(topics.getByText('Silver: 10 Dental AI uses a year')).toBeVisible();
  await shoot(page, 'home-silver', topics);
  await page.goto('/membership');
  await page.getByRole('checkbox', { name: 'I agree to the following:' }).check();
  await page.getByRole('button', { name: 'Choose Plan Gold' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
  await page.getByRole('button', { name: 'Pay' }).click();
  await expect(page).toHaveURL(/\/membership\?payment=paid$/);
  await page.getByRole('link', { name: 'Home', exact: true }).click();
  await expect(topics.getByText('Gold: 30 Dental AI uses a year')).toBeVisible();
  await shoot(page, 'home-gold', topics);
});

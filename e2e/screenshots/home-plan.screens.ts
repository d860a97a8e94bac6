import { expect, logIn, test } from '../support/fixtures';
import { buyGold } from '../support/reports';
import { shoot } from './shoot';

// Home's topic cards on the free plan and after an upgrade to Gold
// (docs/decisions/topic-card-lock.md).
test('Home on Silver and on Gold', async ({ page, account }) => {
  await logIn(page, account);
  const topics = page.getByRole('list', { name: 'Topics' });
  await expect(topics.getByText('Silver: 10 Dental AI uses a year')).toBeVisible();
  await shoot(page, 'home-silver', topics);
  await buyGold(page);
  await page.getByRole('link', { name: 'Home', exact: true }).click();
  await expect(topics.getByText('Gold: 30 Dental AI uses a year')).toBeVisible();
  await shoot(page, 'home-gold', topics);
});

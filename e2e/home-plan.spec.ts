import { expect, logIn, test } from './support/fixtures';
import { checkScreen } from './support/layout-checks';

// Home showed 'Silver: 1GB' and 'Silver: 10 Dental AI uses' and its locks after an upgrade, and
// locked 'Included in every plan' too: the notes were written for Silver whatever the plan. They
// now come from the member's own plan, and the lock shows only on the free plan where a paid one
// gives more (docs/decisions/topic-card-lock.md). On a phone with touch.
test.use({ hasTouch: true });

test('Home says what the member’s plan gives, before and after an upgrade', async ({
  page,
  account,
}) => {
  test.setTimeout(120_000);
  await logIn(page, account);
  const topics = page.getByRole('list', { name: 'Topics' });
  const locks = topics.locator('.tabler-icon-lock');
  const card = (name: string) => topics.getByRole('link', { name, exact: true });

  await expect(card('Dental AI')).toHaveAccessibleDescription('Silver: 10 Dental AI uses a year');
  await expect(card('X-rays and Photos Storage')).toHaveAccessibleDescription(
    'Silver: 1GB of storage for X-rays and records',
  );
  await expect(card('Virtual Consultation')).toHaveAccessibleDescription('Included in every plan');
  // Photos, records and Dental AI: a paid plan gives more of each; never Virtual Consultation.
  await expect(locks).toHaveCount(3);
  await checkScreen(page, 'Home, Silver');

  await page.getByRole('link', { name: 'Membership Upgrade' }).tap();
  await page.getByRole('checkbox', { name: 'I agree to the following:' }).tap();
  await page.getByRole('button', { name: 'Choose Plan Gold' }).tap();
  const chosen = page.getByRole('dialog');
  await expect(chosen).toContainText('Plan "Gold" has been successfully chosen!');
  await chosen.getByRole('button', { name: 'Close' }).tap();
  await page.getByRole('button', { name: 'Pay' }).tap();
  await expect(page).toHaveURL(/\/membership\?payment=paid$/);

  await page.getByRole('link', { name: 'Home', exact: true }).tap();
  await expect(card('Dental AI')).toHaveAccessibleDescription('Gold: 30 Dental AI uses a year');
  await expect(card('Medical or Ins. Records Storage')).toHaveAccessibleDescription(
    'Gold: 5GB of storage for X-rays and records',
  );
  await expect(topics.getByText(/^Silver:/)).toHaveCount(0);
  await expect(locks).toHaveCount(0);
  await checkScreen(page, 'Home, Gold');
});

import type { Page } from '@playwright/test';
import { membershipPaths } from '@dental/contracts';
import { expect, logIn, test } from './support/fixtures';
import { checkScreen } from './support/layout-checks';

const title = 'Choose your plan to start enjoying the benefits!';

const chooseButton = (page: Page, plan: string) =>
  page.getByRole('button', { name: `Choose Plan ${plan}` });

async function openMembership(page: Page) {
  await page.goto('/membership');
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  await expect(chooseButton(page, 'Gold')).toBeEnabled();
}

async function closeDialogWith(page: Page, text: string) {
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText(text);
  await dialog.getByRole('button', { name: 'Close' }).click();
}

test('without the agreement the alert shows and nothing is sent', async ({ page, account }) => {
  await logIn(page, account);
  await openMembership(page);
  const sent: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/membership-payment/')) sent.push(request.url());
  });
  await chooseButton(page, 'Gold').click();
  await closeDialogWith(page, 'Please agree to the terms and conditions before choosing a plan.');
  await expect(page.getByRole('dialog')).toBeHidden();
  expect(sent).toEqual([]);
  await expect(page).toHaveURL(/\/membership$/);
});

test('a Silver member chooses Gold, pays on the test-mode checkout and becomes Gold', async ({
  page,
  account,
}) => {
  test.setTimeout(120_000);
  await logIn(page, account);
  await openMembership(page);
  await expect(chooseButton(page, 'Silver')).toBeDisabled();
  await expect(chooseButton(page, 'Platinum')).toBeEnabled();
  await checkScreen(page, 'Membership');

  await page.getByRole('checkbox', { name: 'I agree to the following:' }).check();
  await chooseButton(page, 'Gold').click();
  await closeDialogWith(page, 'Plan "Gold" has been successfully chosen!');

  // The full-page checkout of test mode.
  await expect(page).toHaveURL(new RegExp(`${membershipPaths.testCheckout}\\?payment_id=`));
  await expect(page.getByRole('heading', { name: 'Checkout' })).toBeVisible();
  await expect(page.getByText('Test mode — no card is charged')).toBeVisible();
  await expect(page.getByText('$29.99 per year')).toBeVisible();
  await checkScreen(page, 'Test-mode checkout');
  await page.getByRole('button', { name: 'Pay' }).click();

  await expect(page).toHaveURL(/\/membership\?payment=paid$/);
  await expect(page.getByRole('status')).toContainText('your plan is now active');
  await expect(chooseButton(page, 'Gold')).toBeDisabled();
  await expect(chooseButton(page, 'Platinum')).toBeEnabled();

  await page.goto('/account');
  const customer = page.getByRole('region', { name: 'Customer Information' });
  await expect(customer).toContainText('Gold');
  await expect(customer).toContainText('3,500');
});

test('Cancel on the test-mode checkout returns to Membership unchanged', async ({
  page,
  account,
}) => {
  await logIn(page, account);
  await openMembership(page);
  await page.getByRole('checkbox', { name: 'I agree to the following:' }).check();
  await chooseButton(page, 'Platinum').click();
  await closeDialogWith(page, 'Plan "Platinum" has been successfully chosen!');
  await expect(page.getByText('Test mode — no card is charged')).toBeVisible();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(/\/membership\?payment=cancelled$/);
  await expect(page.getByRole('status')).toContainText('The payment was cancelled.');
  await expect(chooseButton(page, 'Gold')).toBeEnabled();
});

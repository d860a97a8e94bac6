import type { Page } from '@playwright/test';
import { membershipPaths } from '@dental/contracts';
import { localDate } from './support/dates';
import { closeDialog, expect, logIn, test } from './support/fixtures';
import { atNarrowWidth, checkScreen } from './support/layout-checks';

const title = 'Choose your plan to start enjoying the benefits!';

const chooseButton = (page: Page, plan: string) =>
  page.getByRole('button', { name: `Choose Plan ${plan}` });

const planCard = (page: Page, plan: string) =>
  page.getByRole('region', { name: plan, exact: true });

/** A paid year ends a year after today (the member's calendar day, as the screens show it). */
function oneYearFromToday(): string {
  const end = new Date();
  end.setFullYear(end.getFullYear() + 1);
  return localDate(end);
}

async function openMembership(page: Page) {
  await page.goto('/membership');
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  await expect(chooseButton(page, 'Gold')).toBeEnabled();
}

async function closeDialogWith(page: Page, text: string) {
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText(text);
  await closeDialog(dialog);
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
  await expect(page.getByText('Your plan: Silver. Free, no end date.')).toBeVisible();
  await expect(planCard(page, 'Silver')).toContainText('Your plan');
  await checkScreen(page, 'Membership');

  // On a phone the agreement comes before the first Choose Plan, where the choice is made.
  await atNarrowWidth(page, async () => {
    const agreement = await page
      .getByRole('checkbox', { name: 'I agree to the following:' })
      .boundingBox();
    const firstChoice = await chooseButton(page, 'Silver').boundingBox();
    if (agreement === null || firstChoice === null) throw new Error('not laid out');
    expect(agreement.y).toBeLessThan(firstChoice.y);
  });

  await page.getByRole('checkbox', { name: 'I agree to the following:' }).check();
  await chooseButton(page, 'Gold').click();
  await closeDialogWith(page, 'Plan "Gold" has been successfully chosen!');

  // The full-page checkout of test mode.
  await expect(page).toHaveURL(new RegExp(`${membershipPaths.testCheckout}\\?payment_id=`));
  await expect(page.getByRole('heading', { name: 'Checkout' })).toBeVisible();
  await expect(page.getByText('Test mode — no card is charged')).toBeVisible();
  await expect(page.getByText('$29.99 per year')).toBeVisible();
  // The product's header and favicon: the member is still in Dental Companion.
  await expect(page.getByRole('link', { name: 'Dental Companion' })).toHaveAttribute('href', '/');
  await expect(page.locator('link[rel="icon"]')).toHaveAttribute('href', '/favicon.svg');
  await checkScreen(page, 'Test-mode checkout');
  await page.getByRole('button', { name: 'Pay' }).click();

  await expect(page).toHaveURL(/\/membership\?payment=paid$/);
  await expect(page.getByRole('status')).toContainText('your plan is now active');
  await expect(chooseButton(page, 'Gold')).toBeDisabled();
  await expect(chooseButton(page, 'Platinum')).toBeEnabled();
  const ends = `Ends on ${oneYearFromToday()}`;
  await expect(planCard(page, 'Gold')).toContainText('Your plan');
  await expect(planCard(page, 'Gold')).toContainText(ends);
  await expect(planCard(page, 'Silver')).not.toContainText('Your plan');
  await expect(page.getByText(`Your plan: Gold. ${ends}.`)).toBeVisible();

  await page.goto('/account');
  const customer = page.getByRole('region', { name: 'Customer Information' });
  await expect(customer).toContainText('Gold');
  await expect(customer).toContainText('3,500');
  await expect(customer).toContainText(ends);
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

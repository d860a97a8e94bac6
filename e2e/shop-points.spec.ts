import type { Page } from '@playwright/test';
import { shopPaths } from '@dental/contracts';
import { expect, logIn, test } from './support/fixtures';
import { checkScreen, phoneViewport } from './support/layout-checks';

// The points shop (docs/product/shop.md): Buy on a supplier page, the order form with points, the
// test-mode checkout, the order page and the points ledger linked from the Profile.

/** axe at both widths, no sideways scroll at 360 px, and a picture of the screen to look at. */
async function checkAndShoot(page: Page, screen: string, file: string) {
  await checkScreen(page, screen);
  await page.screenshot({ path: test.info().outputPath(file), fullPage: true });
}

test.describe('on a phone with touch', () => {
  test.use({ viewport: phoneViewport, hasTouch: true });

  test('a member orders with points, pays on the test-mode checkout and sees the order and the ledger', async ({
    page,
    account,
  }) => {
    test.setTimeout(180_000);
    await logIn(page, account);
    await page.goto('/oral-supplier');
    await page.getByRole('link', { name: 'Water Flossers' }).first().tap();
    await expect(page.getByRole('heading', { name: 'Water Flossers', level: 1 })).toBeVisible();
    const shop = page.getByRole('region', { name: 'In our shop' });
    await expect(shop).toContainText('Cordless water flosser');
    await expect(shop).toContainText('$59.99');
    await checkAndShoot(page, 'Supplier page with products', 'supplier-page.png');

    await page.getByRole('link', { name: 'Buy' }).tap();
    await expect(
      page.getByRole('heading', { name: 'Order from Water Flossers', level: 1 }),
    ).toBeVisible();
    await expect(
      page.getByRole('radio', { name: 'Cordless water flosser — $59.99' }),
    ).toBeChecked();
    await page.getByLabel('Full name').fill('Ana Member');
    await page.getByLabel('Street address').fill('1 Market Street');
    await page.getByLabel('City').fill('San Francisco');
    await page.getByLabel('State').fill('CA');
    await page.getByLabel('ZIP code').fill('94105');
    const points = page.getByLabel('Points to use');
    await expect(
      page.getByText('You have 500 points; you can use up to 500 points here.'),
    ).toBeVisible();
    await points.fill('500');
    await expect(page.getByText('$54.99')).toBeVisible();
    await checkAndShoot(page, 'Order form', 'order-form.png');
    await page.getByRole('button', { name: 'Continue to payment' }).tap();

    await expect(page).toHaveURL(new RegExp(`${shopPaths.testCheckout}\\?payment_id=`));
    await expect(page.getByText('Test mode — no card is charged')).toBeVisible();
    await expect(page.getByText('500 (−$5.00)')).toBeVisible();
    await page.getByRole('button', { name: 'Pay' }).tap();

    await expect(page).toHaveURL(/\/orders\/[0-9a-f-]+\?payment=paid$/);
    await expect(page.getByRole('heading', { name: 'Order', level: 1 })).toBeVisible();
    await expect(page.getByRole('definition').first()).toHaveText('Paid');
    await expect(page.getByText('500 points (−$5.00)')).toBeVisible();
    await expect(page.getByText('$54.99')).toBeVisible();
    await checkAndShoot(page, 'Order page', 'order-page.png');

    await page.goto('/account');
    await page
      .getByRole('region', { name: 'Customer Information' })
      .getByRole('link', { name: 'Points' })
      .tap();
    await expect(page.getByRole('heading', { name: 'Points', level: 1 })).toBeVisible();
    const ledger = page.getByRole('table', { name: 'Every change to your points, newest first' });
    await expect(ledger.getByRole('row')).toHaveCount(3);
    await expect(ledger.getByRole('row').nth(1)).toContainText('Used on an order');
    await expect(ledger.getByRole('row').nth(1)).toContainText('−500');
    await expect(ledger.getByRole('row').nth(2)).toContainText('Silver bonus');
    await expect(ledger.getByRole('row').nth(2)).toContainText('+500');
    await checkAndShoot(page, 'Points ledger', 'points-ledger.png');
  });
});

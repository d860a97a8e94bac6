import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { readPdf } from '../apps/api/test/support/pdf-reader';
import { localDate } from './support/dates';
import { closeDialog, expect, logIn, test } from './support/fixtures';
import { mailTo } from './support/outbox';
import { checkScreen, phoneViewport } from './support/layout-checks';

// Receipts (docs/product/receipts.md): a plan bought on the test-mode checkout shows on the
// Profile's Receipts screen, whose PDF reads back with the receipt's facts.

/** Gold through the Membership screen and the test-mode checkout, as a member would. */
async function buyGold(page: Page) {
  await page.goto('/membership');
  await page.getByRole('checkbox', { name: 'I agree to the following:' }).check();
  await page.getByRole('button', { name: 'Choose Plan Gold' }).tap();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Plan "Gold" has been successfully chosen!');
  await closeDialog(dialog);
  await expect(page.getByText('Test mode — no card is charged')).toBeVisible();
  await page.getByRole('button', { name: 'Pay' }).tap();
  await expect(page).toHaveURL(/\/membership\?payment=paid$/);
}

test.describe('on a phone with touch', () => {
  test.use({ viewport: phoneViewport, hasTouch: true });

  test('a Gold purchase has a receipt on the Profile, downloadable as a PDF', async ({
    page,
    account,
  }) => {
    test.setTimeout(120_000);
    await logIn(page, account);

    // Before any payment: the empty state, which points to Membership.
    await page.goto('/account/receipts');
    await expect(page.getByText(/^No payments yet\./)).toBeVisible();
    await checkScreen(page, 'Receipts, empty');

    await buyGold(page);
    await page.goto('/account');
    await page
      .getByRole('region', { name: 'Receipts' })
      .getByRole('link', { name: 'Receipts' })
      .tap();
    await expect(page).toHaveURL(/\/account\/receipts$/);
    await expect(page.getByRole('heading', { name: 'Receipts', level: 1 })).toBeVisible();
    const receipts = page.getByRole('list', { name: 'Your receipts, newest first' });
    const receipt = receipts.getByRole('listitem');
    await expect(receipt).toHaveCount(1);
    await expect(receipt).toContainText('Gold membership, 1 year');
    await expect(receipt).toContainText('$29.99 USD');
    await expect(receipt).toContainText(`Paid ${localDate()} with Test card •••• 4242`);
    const number = /Receipt number (DC-\d{4}-\d{6,})/.exec(await receipt.innerText())?.[1];
    if (number === undefined) throw new Error('the receipt shows no number');
    await checkScreen(page, 'Receipts');

    // The purchase e-mail links here and names the same number.
    const [mail] = (await mailTo(account.email)).filter((m) => m.subject?.includes('receipt'));
    expect(mail?.text).toContain(`Receipt number: ${number}`);
    expect(mail?.text).toMatch(
      /Your receipts, to download as PDF: http:\/\/\S+\/account\/receipts/,
    );

    const downloading = page.waitForEvent('download');
    await receipt.getByRole('link', { name: `Download PDF of receipt ${number}` }).tap();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`Receipt ${number}.pdf`);
    const pdf = await readPdf(await readFile(await download.path()));
    expect(pdf.title).toBe(`Receipt ${number}`);
    expect(pdf.marked).toBe(true);
    // Chromium asks for American English: Letter paper.
    expect(pdf.size).toEqual([612, 792]);
    const text = pdf.text.join(' ');
    for (const expected of [
      `Receipt number: ${number}`,
      'Item: Gold membership, 1 year',
      'Amount paid: $29.99 USD',
      'Payment method: Test card •••• 4242',
      `Username: ${account.username}`,
      `E-mail: ${account.email}`,
      'All membership sales are final, with no cancellations or refunds.',
    ]) {
      expect(text).toContain(expected);
    }
  });
});

import { openAddScreen } from './support/add-screen';
import { localDate } from './support/dates';
import { expect, logIn, test } from './support/fixtures';
import { checkScreen } from './support/layout-checks';
import { pdfOf } from './support/pdf-file';

const pdfFile = (name: string) => ({ name, mimeType: 'application/pdf', buffer: pdfOf() });

const addRecordUrl = /\/medical-records\/add$/;

test('adds a record with a PDF, then adds and removes a file', async ({ page, account }) => {
  const today = localDate();
  await logIn(page, account);
  await page.getByRole('link', { name: 'Medical or Ins. Records Storage' }).click();
  await expect(page).toHaveURL(/\/medical-records\/?$/);
  await expect(page.getByText('No records in this period.')).toBeVisible();

  await openAddScreen(page, addRecordUrl);
  await expect(page.getByRole('heading', { name: 'Add New Records' })).toBeVisible();
  await page.getByLabel('Title').fill('Insurance claim');
  await expect(page.getByLabel('Record date')).toHaveValue(today);
  await page.getByLabel('Note').fill('Crown, upper right');
  await page.getByLabel('Files').setInputFiles(pdfFile('claim.pdf'));
  await expect(page.getByRole('list', { name: 'Chosen files' })).toContainText('claim.pdf');
  await page.getByRole('button', { name: 'Save' }).click();

  await expect(page).toHaveURL(/\/medical-records$/);
  const card = page.getByRole('button', { name: `Insurance claim ${today}` });
  await card.click();
  await expect(page.getByText('Crown, upper right')).toBeVisible();
  const files = page.getByRole('list', { name: 'Attached files' });
  await expect(files).toContainText('claim.pdf');
  const downloading = page.waitForEvent('download');
  await files.getByRole('link', { name: 'Download claim.pdf' }).click();
  expect((await downloading).suggestedFilename()).toBe('claim.pdf');

  // The order switch and the date filter.
  await page.getByText('Ascending', { exact: true }).click();
  await expect(card).toBeVisible();
  await page.getByLabel('To', { exact: true }).fill('2000-01-01');
  await page.getByLabel('From', { exact: true }).fill('1999-01-01');
  await expect(page.getByText('No records in this period.')).toBeVisible();
  await page.getByLabel('From', { exact: true }).fill(today);
  await page.getByLabel('To', { exact: true }).fill(today);
  await expect(card).toBeVisible();

  // The detail screen (the card is still open): upload one more file, remove it, save a change.
  await page.getByRole('link', { name: 'Edit' }).click();
  await expect(page).toHaveURL(/\/medical-records\/[0-9a-f-]+$/);
  await expect(page.getByLabel('Title')).toHaveValue('Insurance claim');
  await page.getByLabel('Upload a file').setInputFiles(pdfFile('receipt.pdf'));
  const attached = page.getByRole('list', { name: 'Attached files' });
  await expect(attached).toContainText('receipt.pdf');
  await attached.getByRole('button', { name: 'Remove receipt.pdf' }).click();
  await page
    .getByRole('dialog', { name: 'Remove file' })
    .getByRole('button', { name: 'Remove' })
    .click();
  await expect(attached).not.toContainText('receipt.pdf');
  await expect(attached).toContainText('claim.pdf');

  await page.getByLabel('Title').fill('Insurance claim 2026');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();

  // Delete the record and its files.
  await page.getByRole('button', { name: 'Delete' }).click();
  await page
    .getByRole('dialog', { name: 'Delete record' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(page).toHaveURL(/\/medical-records$/);
  await expect(page.getByText('No records in this period.')).toBeVisible();
});

test('every record screen is accessible and fits 360 px', async ({ page, account }) => {
  // axe runs twice on each of six screens: slow on a shared two-core machine.
  test.setTimeout(300_000);
  await logIn(page, account);
  await page.goto('/medical-records');
  await expect(page.getByText('No records in this period.')).toBeVisible();
  await checkScreen(page, 'record list (empty)');

  await openAddScreen(page, addRecordUrl, () => checkScreen(page, 'add record disclaimer'));
  await page.getByLabel('Title').fill('A record with a rather long title that has to wrap nicely');
  await page.getByLabel('Files').setInputFiles(pdfFile('a-file-with-a-long-name-for-wrapping.pdf'));
  await checkScreen(page, 'add record form');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/medical-records$/);

  await page.getByRole('button', { name: /A record with a rather long title/ }).click();
  await expect(page.getByRole('list', { name: 'Attached files' })).toBeVisible();
  await checkScreen(page, 'record list with an open card');
  await page.getByRole('button', { name: /^Remove / }).click();
  await expect(page.getByRole('dialog', { name: 'Remove file' })).toBeVisible();
  await checkScreen(page, 'remove file confirmation');
  await page.getByRole('button', { name: 'Cancel' }).click();

  await page.getByRole('link', { name: 'Edit' }).click();
  await expect(page.getByLabel('Title')).toBeVisible();
  await checkScreen(page, 'record detail');
});

import { expect, logIn, test } from '../support/fixtures';
import { shoot } from './shoot';

// A ready report: Home's notice, choosing it on the Reports screen to share, and the dentist's
// page that lists it (docs/product/reports.md, docs/product/sharing.md).
test('Home’s ready notice, sharing a report and the dentist’s page with it', async ({
  page,
  account,
  browser,
}) => {
  test.setTimeout(150_000);
  await logIn(page, account);
  await page.goto('/reports');
  await page.getByRole('button', { name: 'Generate' }).click();
  const reports = page.getByRole('region', { name: 'Your reports' });
  await expect(reports.getByText('Ready')).toBeVisible({ timeout: 60_000 });

  await page.goto('/');
  await expect(page.getByRole('link', { name: /report is ready/ })).toBeVisible();
  await shoot(page, 'home-report-ready');

  await page.goto('/reports');
  await reports.getByRole('button', { name: 'Share', exact: true }).click();
  await reports.getByRole('checkbox', { name: /^Share Treatment history report, / }).check();
  const bar = page.getByRole('region', { name: 'Choose what to share' });
  await expect(bar).toContainText('1 report chosen.');
  await shoot(page, 'reports-share-choosing', reports);
  await bar.getByRole('button', { name: 'Share…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Share with a dentist' });
  await dialog.getByRole('textbox', { name: 'Label' }).fill('For Dr. Patel');
  await dialog.getByRole('button', { name: 'Create link' }).click();
  const url = await page
    .getByRole('dialog', { name: 'Your link is ready' })
    .getByRole('textbox', { name: 'Link to share' })
    .inputValue();

  const dentistContext = await browser.newContext();
  try {
    const dentist = await dentistContext.newPage();
    await dentist.goto(new URL(url).pathname);
    const shared = dentist.getByRole('region', { name: 'Reports' });
    await expect(shared.getByRole('link', { name: /^Download the treatment/ })).toBeVisible();
    await shoot(dentist, 'shared-page-report', shared);
  } finally {
    await dentistContext.close();
  }
});

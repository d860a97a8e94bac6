import { expect, logIn, test } from './support/fixtures';
import { checkScreen, phoneViewport } from './support/layout-checks';
import { downloadedPdfText } from './support/reports';

// A finished report shared with a dentist (docs/product/sharing.md): chosen on the Reports screen
// like photos in their list, listed on the share's page by its kind and period, and downloaded
// through the share's own file link as the PDF itself.

test.describe('on a phone with touch', () => {
  test.use({ viewport: phoneViewport, hasTouch: true });

  test('shares a ready report, which the dentist downloads as the PDF', async ({
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

    // The member chooses the report and shares it.
    await reports.getByRole('button', { name: 'Share', exact: true }).click();
    const choice = reports.getByRole('checkbox', { name: /^Share Treatment history report, / });
    const [, period = ''] =
      /^Share Treatment history report, (.+)$/.exec(
        (await choice.getAttribute('aria-label')) ?? '',
      ) ?? [];
    expect(period).toMatch(/^\d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2}$/);
    await choice.check();
    const bar = page.getByRole('region', { name: 'Choose what to share' });
    await expect(bar).toContainText('1 report chosen.');
    await checkScreen(page, 'Reports, choosing what to share');
    await bar.getByRole('button', { name: 'Share…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Share with a dentist' });
    await expect(dialog).toContainText('Anyone with the link can see 1 report');
    await dialog.getByRole('textbox', { name: 'Label' }).fill('For Dr. Patel');
    await dialog.getByRole('button', { name: 'Create link' }).click();
    const ready = page.getByRole('dialog', { name: 'Your link is ready' });
    const url = await ready.getByRole('textbox', { name: 'Link to share' }).inputValue();
    await ready.getByRole('button', { name: 'Done' }).click();

    await page.goto('/account/shared-links');
    await expect(page.getByRole('listitem').filter({ hasText: 'For Dr. Patel' })).toContainText(
      '1 report',
    );

    // The dentist, without an account, sees the report's kind and period and downloads it.
    const dentistContext = await browser.newContext({
      viewport: phoneViewport,
      hasTouch: true,
      acceptDownloads: true,
    });
    try {
      const dentist = await dentistContext.newPage();
      await dentist.goto(new URL(url).pathname);
      const shared = dentist.getByRole('region', { name: 'Reports' });
      await expect(
        shared.getByRole('heading', { name: 'Treatment history report', level: 3 }),
      ).toBeVisible();
      await expect(shared.getByText(period, { exact: true })).toBeVisible();
      const link = shared.getByRole('link', {
        name: `Download the treatment history report, ${period} (PDF)`,
      });
      expect(await link.getAttribute('href')).toMatch(/^\/api\/shared-files\//);
      await checkScreen(dentist, 'Shared page with a report');
      const text = (await downloadedPdfText(dentist, link)).join(' ');
      expect(text).toContain('Treatment history report');
      expect(text).toContain(account.username);
    } finally {
      await dentistContext.close();
    }
  });
});

import type { Page } from '@playwright/test';
import { localDate } from './support/dates';
import { expect, logIn, test } from './support/fixtures';
import { checkScreen, phoneViewport } from './support/layout-checks';
import { daysAgo, storeOlderEntries } from './support/older-entries';
import { storeXray } from './support/stored-photos';

// docs/decisions/older-items-hint.md: the lists open on SPEC's month, so a
// member's older photos, records and appointments looked missing. Each list now says what its
// dates hide and widens to every date in one tap, and keeps that range for the session.

/** The hint under the list, then 'Show all' tapped: the dates open at both ends. */
async function tapShowAll(page: Page, hint: string, screen: string) {
  await expect(page.getByText(hint, { exact: true })).toBeVisible();
  await checkScreen(page, screen);
  await page.getByRole('button', { name: 'Show all' }).tap();
  await expect(page.getByRole('textbox', { name: 'From', exact: true })).toHaveValue('');
  await expect(page.getByRole('textbox', { name: 'To', exact: true })).toHaveValue('');
  await expect(page.getByText(hint, { exact: true })).toBeHidden();
}

test.describe('on a phone with touch', () => {
  test.use({ viewport: phoneViewport, hasTouch: true });

  test('older photos, records and appointments are said under each list; Show all lists them and stays for the session', async ({
    page,
    request,
    account,
  }) => {
    await storeXray(request, account, 'Bitewing', '2025-03-10');
    await storeOlderEntries(request, account);
    await logIn(page, account);

    await page.goto('/oral-photo');
    await expect(page.getByText('No photos in this period.')).toBeVisible();
    await tapShowAll(
      page,
      '1 older photo or X-ray is outside these dates —',
      'X-rays and Photos Storage, older photos hidden',
    );
    await expect(page.getByRole('button', { name: '2025-03-10 X-ray' })).toBeVisible();

    await page.goto('/medical-records');
    await expect(page.getByText('No records in this period.')).toBeVisible();
    await tapShowAll(
      page,
      '1 older record is outside these dates —',
      'Medical or Ins. Records Storage, older records hidden',
    );
    await expect(
      page.getByRole('button', { name: `Crown invoice ${localDate(daysAgo(42))}` }),
    ).toBeVisible();

    await page.goto('/appointments');
    await page.getByText('Previous', { exact: true }).tap();
    await expect(page.getByText('No appointments in this period.')).toBeVisible();
    await tapShowAll(
      page,
      '1 earlier appointment is outside these dates —',
      'Appointments Remind & History, earlier appointments hidden',
    );
    await expect(page.getByText('Filling with Dr. Chen')).toBeVisible();

    // Back on a list later in the session (a reload too), it opens on every date.
    await page.goto('/oral-photo');
    await expect(page.getByRole('button', { name: '2025-03-10 X-ray' })).toBeVisible();
    await page.reload();
    await page.goto('/medical-records');
    await expect(page.getByRole('textbox', { name: 'From', exact: true })).toHaveValue('');
    await expect(
      page.getByRole('button', { name: `Crown invoice ${localDate(daysAgo(42))}` }),
    ).toBeVisible();
  });
});

import { exportedZip, newMemberChoosing } from './support/data-import';
import { expect, test } from './support/fixtures';
import { localDate } from './support/dates';
import { checkScreen } from './support/layout-checks';
import { storeXray } from './support/stored-photos';

test.describe('on a phone', () => {
  test.use({ viewport: { width: 360, height: 740 }, hasTouch: true });

  test('Import a record brings another member’s export in, with its progress and what it added', async ({
    page,
    request,
    account,
  }) => {
    // The record to move: an X-ray with a note, exported by its first owner.
    const today = localDate();
    await storeXray(request, account, 'Lower left molar', today);
    const zip = await exportedZip(request, account);

    const section = await newMemberChoosing(page, request, zip, (field) => field.tap());
    await section.getByRole('button', { name: 'Import this file' }).tap();
    // The job's progress, then what it brought in.
    await expect(section.getByText(/^Importing your record: \d+%\.$/)).toBeVisible();
    await expect(section.getByText('Import finished')).toBeVisible({ timeout: 60_000 });
    const imported = section.getByRole('list', { name: 'Imported' });
    await expect(imported).toContainText('X-rays: 1');
    await expect(imported).toContainText('Photos: 0');
    await expect(section.getByText('Nothing was already in your record.')).toBeVisible();
    await checkScreen(page, 'Import a record, finished');

    await page.goto('/oral-photo');
    await page.getByRole('button', { name: `${today} X-ray` }).tap();
    await expect(page.getByRole('img', { name: `X-ray of ${today}` })).toBeVisible();
    await expect(page.getByText('Lower left molar')).toBeVisible();
  });
});

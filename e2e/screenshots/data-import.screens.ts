import { exportedZip } from '../support/exported-zip';
import { expect, logIn, registerAccount, test } from '../support/fixtures';
import { storeXray } from '../support/stored-photos';
import { shoot } from './shoot';

// 'Import a record' on the Profile (docs/decisions/data-import.md): the chosen file, then what
// the import brought in.
test('Import a record', async ({ page, request, account }) => {
  test.setTimeout(180_000);
  await storeXray(request, account, 'Lower left molar');
  const zip = await exportedZip(request, account);
  const newcomer = await registerAccount(request);
  await logIn(page, newcomer);
  await page.goto('/account');
  const section = page.getByRole('region', { name: 'Import a record' });
  const choosing = page.waitForEvent('filechooser');
  await section.getByLabel('Import a record').click();
  await (
    await choosing
  ).setFiles({ name: 'dental-record.zip', mimeType: 'application/zip', buffer: zip });
  await shoot(page, 'data-import-chosen', section);
  await section.getByRole('button', { name: 'Import this file' }).click();
  await expect(section.getByText('Import finished')).toBeVisible({ timeout: 60_000 });
  await shoot(page, 'data-import-finished', section);
});

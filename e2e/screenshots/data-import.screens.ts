import { exportedZip, newMemberChoosing } from '../support/data-import';
import { expect, test } from '../support/fixtures';
import { storeXray } from '../support/stored-photos';
import { shoot } from './shoot';

// 'Import a record' on the Profile (docs/decisions/data-import.md): the chosen file, then what
// the import brought in.
test('Import a record', async ({ page, request, account }) => {
  test.setTimeout(180_000);
  await storeXray(request, account, 'Lower left molar');
  const zip = await exportedZip(request, account);
  const section = await newMemberChoosing(page, request, zip, (field) => field.click());
  await shoot(page, 'data-import-chosen', section);
  await section.getByRole('button', { name: 'Import this file' }).click();
  await expect(section.getByText('Import finished')).toBeVisible({ timeout: 60_000 });
  await shoot(page, 'data-import-finished', section);
});

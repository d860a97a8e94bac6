import { logIn, test } from '../support/fixtures';
import { storeOlderEntries } from '../support/older-entries';
import { storeXray } from '../support/stored-photos';
import { shoot } from './shoot';

/** The three lists on their default dates with older entries hidden, said under the list
 *  (docs/decisions/older-items-hint.md). */
test('lists that say what their dates hide', async ({ page, request, account }) => {
  test.setTimeout(180_000);
  await storeXray(request, account, 'Bitewing', '2025-03-10');
  await storeXray(request, account, 'Molar', '2025-09-02');
  await storeOlderEntries(request, account);
  await logIn(page, account);

  const showAll = page.getByRole('button', { name: 'Show all' });
  await page.goto('/oral-photo');
  await showAll.waitFor();
  await shoot(page, 'photo-list-older-hint', showAll);

  await page.goto('/medical-records');
  await showAll.waitFor();
  await shoot(page, 'record-list-older-hint', showAll);

  await page.goto('/appointments');
  await page.getByText('Previous', { exact: true }).click();
  await showAll.waitFor();
  await shoot(page, 'appointment-list-older-hint', showAll);

  await showAll.click();
  await page.getByText('Filling with Dr. Chen').waitFor();
  await shoot(page, 'appointment-list-show-all');
});

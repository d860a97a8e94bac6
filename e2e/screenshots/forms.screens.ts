import { openAddScreen } from '../support/add-screen';
import { logIn, test } from '../support/fixtures';
import { shoot } from './shoot';

test('form screens', async ({ page, account }) => {
  test.setTimeout(120_000);
  await logIn(page, account);
  await page.goto('/appointments/add');
  await page.getByLabel('Note').fill('Check-up with Dr. Lee');
  await shoot(page, 'appointment-form', page.getByRole('button', { name: 'Save' }));

  await page.goto('/medical-records');
  await openAddScreen(page, /\/medical-records\/add$/);
  await page.getByLabel('Title').fill('Yearly check-up');
  await page.getByLabel('Note').fill('No new cavities');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('button', { name: /^Yearly check-up/ }).click();
  await page.getByRole('link', { name: 'Edit' }).click();
  await shoot(page, 'medical-record-detail', page.getByRole('button', { name: 'Save' }));
});

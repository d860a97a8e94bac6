import { expect, logIn, test } from '../support/fixtures';
import { shoot } from './shoot';

// The Profile's health record details (docs/decisions/fhir-export.md): the form, then the saved
// details.
test('Health record details', async ({ page, account }) => {
  test.setTimeout(120_000);
  await logIn(page, account);
  await page.goto('/account');
  const section = page.getByRole('region', { name: 'Health record details' });
  await section.getByRole('button', { name: 'Edit health record details' }).click();
  await section.getByRole('textbox', { name: 'Given name' }).fill('Ada');
  await section.getByRole('textbox', { name: 'Family name' }).fill('Lovelace');
  await section.getByLabel('Date of birth').fill('1985-12-10');
  await section.getByRole('combobox', { name: 'Sex' }).selectOption('female');
  await shoot(page, 'health-record-details-form', section);
  await section.getByRole('button', { name: 'Save' }).click();
  await expect(section.getByText('Lovelace')).toBeVisible();
  await shoot(page, 'health-record-details', section);
});

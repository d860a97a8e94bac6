import type { Locator, Page } from '@playwright/test';
import { openAddScreen } from './support/add-screen';
import { expect, logIn, test } from './support/fixtures';
import { checkScreen } from './support/layout-checks';

const desktop = { width: 1280, height: 900 };
const phone = { width: 360, height: 740 };

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  if (found === null) throw new Error('The button is not on screen.');
  return found;
}

/** The form's leave button (Cancel or Back) and its submit button sit together at the form's
 *  right at 1280 px, leave button first, and are stacked full width, in the same order, at 360 px
 *  (docs/decisions/form-actions.md); axe and the sideways-scroll check then run at both widths. */
async function expectFormActions(
  page: Page,
  screen: string,
  submit: string,
  leave: string,
  form = page.locator('form').filter({ has: page.getByRole('button', { name: submit }) }),
) {
  const save = form.getByRole('button', { name: submit, exact: true });
  const back = form.getByRole('button', { name: leave, exact: true });
  await expect(save).toHaveText(submit);

  await page.setViewportSize(desktop);
  const [formAt, saveAt, backAt] = [await box(form), await box(save), await box(back)];
  expect(backAt.x + backAt.width, `${leave} left of ${submit} on ${screen}`).toBeLessThan(saveAt.x);
  expect(Math.abs(backAt.y - saveAt.y), `one row on ${screen}`).toBeLessThan(1);
  expect(formAt.x + formAt.width - (saveAt.x + saveAt.width)).toBeLessThan(1);

  await page.setViewportSize(phone);
  const [narrowForm, narrowSave, narrowBack] = [await box(form), await box(save), await box(back)];
  expect(narrowBack.y + narrowBack.height, `${leave} above ${submit} on ${screen}`).toBeLessThan(
    narrowSave.y,
  );
  for (const button of [narrowSave, narrowBack]) {
    expect(Math.abs(button.width - narrowForm.width), `full width on ${screen}`).toBeLessThan(1);
  }

  await page.setViewportSize(desktop);
  await checkScreen(page, screen);
  return back;
}

test('every add and edit form has Cancel or Back beside its Save, and leaving saves nothing', async ({
  page,
  account,
}) => {
  // Eight forms, each checked by axe at two widths.
  test.setTimeout(300_000);
  await page.setViewportSize(desktop);
  await logIn(page, account);

  // Appointments: Cancel on New Appointment saves nothing; one saved, then Edit and Cancel.
  await page.goto('/appointments');
  await page.getByRole('link', { name: '+Add' }).click();
  await expect(page).toHaveURL(/\/appointments\/add$/);
  await page.getByLabel('Note').fill('Not kept');
  await (await expectFormActions(page, 'new appointment', 'Save', 'Cancel')).click();
  await expect(page).toHaveURL(/\/appointments$/);
  await expect(page.getByText('No appointments in this period.')).toBeVisible();
  await page.getByRole('link', { name: '+Add' }).click();
  await page.getByLabel('Note').fill('Kept');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/appointments$/);
  await page.getByRole('link', { name: 'Edit' }).click();
  await expect(page.getByRole('heading', { name: 'Edit Appointment' })).toBeVisible();
  await page.getByLabel('Note').fill('Changed, not kept');
  await (await expectFormActions(page, 'edit appointment', 'Save', 'Cancel')).click();
  await expect(page).toHaveURL(/\/appointments$/);
  await expect(page.getByText('Kept', { exact: true })).toBeVisible();
  await expect(page.getByText('Changed, not kept')).toHaveCount(0);

  // Oral photos: Add Photo after the disclaimer.
  await page.goto('/oral-photo');
  await openAddScreen(page, /\/oral-photo\/add$/);
  await (await expectFormActions(page, 'add photo', 'Save', 'Cancel')).click();
  await expect(page).toHaveURL(/\/oral-photo$/);

  // Medical records: Cancel on Add New Records saves nothing; the record page saves with a
  // labelled button and Back leaves the changed title unsaved.
  // The disclaimer was accepted on Add Photo: it is asked once per member.
  await page.goto('/medical-records');
  await page.getByRole('link', { name: '+Add' }).click();
  await page.getByLabel('Title').fill('Not kept');
  await (await expectFormActions(page, 'add new records', 'Save', 'Cancel')).click();
  await expect(page).toHaveURL(/\/medical-records$/);
  await expect(page.getByText('No records in this period.')).toBeVisible();
  await page.getByRole('link', { name: '+Add' }).click();
  await page.getByLabel('Title').fill('Yearly check-up');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/medical-records$/);
  await page.getByRole('button', { name: /^Yearly check-up/ }).click();
  await page.getByRole('link', { name: 'Edit' }).click();
  await expect(page.getByRole('heading', { name: 'Medical Record' })).toBeVisible();
  await page.getByLabel('Title').fill('Changed, not kept');
  await (await expectFormActions(page, 'medical record', 'Save', 'Back')).click();
  await expect(page).toHaveURL(/\/medical-records$/);
  await expect(page.getByRole('button', { name: /^Yearly check-up/ })).toBeVisible();

  // The consultation booking form goes back to the hub.
  await page.goto('/virtual-consultation');
  await page.getByRole('link', { name: 'Reservation', exact: true }).click();
  await expect(page).toHaveURL(/\/virtual-consultation\/book$/);
  await (await expectFormActions(page, 'booking page', 'Confirm Reservation', 'Cancel')).click();
  await expect(page).toHaveURL(/\/virtual-consultation$/);

  // Dental AI, opened from Home, goes back there.
  await page.goto('/');
  await page.getByRole('link', { name: 'Dental AI' }).click();
  await expect(page.getByRole('heading', { name: 'Dental AI', level: 1 })).toBeVisible();
  await (await expectFormActions(page, 'dental AI', 'Start Detection', 'Cancel')).click();
  await expect(page).toHaveURL(/\/$/);

  // A profile editor: Cancel closes it and keeps the name.
  await page.goto('/account');
  await page.getByRole('button', { name: 'Edit name' }).click();
  const name = page.getByRole('textbox', { name: 'Name', exact: true });
  await name.fill('Not kept');
  const nameForm = page.locator('form').filter({ has: name });
  await (await expectFormActions(page, 'name editor', 'Save', 'Cancel', nameForm)).click();
  await expect(name).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Edit name' })).toBeVisible();
  await expect(page.getByText('Not kept')).toHaveCount(0);
});

import { expect, newAccountDetails, submitLogin, test } from './support/fixtures';

test('a new patient signs up, logs in, renames themselves inline and logs out', async ({
  page,
}) => {
  const patient = newAccountDetails();
  const newName = `${patient.username} Renamed`;

  await test.step('sign up', async () => {
    await page.goto('/signup');
    await expect(page.getByRole('heading', { name: 'Sign up' })).toBeVisible();
    await page.getByRole('textbox', { name: 'Email', exact: true }).fill(patient.email);
    await page.getByRole('textbox', { name: 'Phone', exact: true }).fill('2015550123');
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill(patient.username);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(patient.password);
    await page
      .getByRole('textbox', { name: 'Confirm Password', exact: true })
      .fill(patient.password);
    await page
      .getByRole('checkbox', { name: 'I agree to the Terms of Service and the Privacy Policy' })
      .check();
    await page.getByRole('button', { name: 'Sign up', exact: true }).click();
    await expect(page).toHaveURL(/\/login$/);
    // Login says what happened (docs/decisions/patient-grade-defects.md).
    await expect(page.getByRole('alert')).toContainText('Account created');
  });

  await test.step('log in and reach home', async () => {
    await submitLogin(page, patient);
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { name: 'You are ready to go!' })).toBeVisible();
    await expect(page.getByRole('link', { name: `Hi, ${patient.username}` })).toBeVisible();
  });

  await test.step('edit the name inline on the profile', async () => {
    await page.getByRole('link', { name: `Hi, ${patient.username}` }).click();
    await expect(page).toHaveURL(/\/account$/);
    await expect(page.getByRole('heading', { name: 'Profile', exact: true })).toBeVisible();
    // In the Profile: the banner asking to confirm the address names it too.
    await expect(
      page.getByRole('region', { name: 'Profile' }).getByText(patient.email),
    ).toBeVisible();
    await page.getByRole('button', { name: 'Edit name' }).click();
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill(newName);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByRole('textbox', { name: 'Name', exact: true })).toBeHidden();
    await expect(page.getByRole('link', { name: `Hi, ${newName}` })).toBeVisible();

    // The new name comes back from the server, not only from the page's own state.
    await page.reload();
    await expect(page.getByRole('link', { name: `Hi, ${newName}` })).toBeVisible();
    await expect(page.getByText(newName, { exact: true })).toBeVisible();
  });

  await test.step('log out from home', async () => {
    await page.getByRole('link', { name: 'Home', exact: true }).click();
    await page.getByRole('button', { name: 'Log out' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await page.goto('/');
    await expect(page).toHaveURL(/\/login$/);
  });
});

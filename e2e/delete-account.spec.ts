import {
  closeDialog,
  expect,
  fetchPublicConfig,
  logIn,
  submitLogin,
  test,
} from './support/fixtures';

test('a deleted account is refused at login with the customer-service contact', async ({
  page,
  account,
  request,
}) => {
  const { customer_service_email: customerServiceEmail } = await fetchPublicConfig(request);
  await logIn(page, account);

  await page.getByRole('link', { name: `Hi, ${account.username}` }).click();
  await expect(page.getByRole('heading', { name: 'Delete Data' })).toBeVisible();
  await page.getByRole('button', { name: 'Delete Account and Data' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete Account and Data' });
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(page).toHaveURL(/\/login$/);
  // Login says what happened (docs/decisions/patient-grade-defects.md).
  await expect(page.getByRole('alert')).toContainText('Account deleted');

  await submitLogin(page, account);
  const message = page.getByRole('dialog');
  await expect(message).toContainText(customerServiceEmail);
  await closeDialog(message);
  await expect(page).toHaveURL(/\/login$/);
});

import { accountPaths, appointmentPaths, tokenPair } from '@dental/contracts';
import { expect, logIn, newAccountDetails, registerAccount, test } from '../support/fixtures';
import { waitForConfirmationKey } from '../support/outbox';
import { shoot } from './shoot';

// The confirmation banner, the confirm screen, a change of address waiting on the Profile
// (docs/decisions/email-confirmation.md) and the check-up reminder under the appointments
// (docs/decisions/check-up-recall.md).
test('E-mail confirmation and the check-up reminder', async ({ page, request }) => {
  test.setTimeout(180_000);
  const account = await registerAccount(request, { confirmed: false });
  await logIn(page, account);
  const banner = page.getByRole('status', { name: 'E-mail confirmation' });
  await expect(banner).toBeVisible();
  await shoot(page, 'email-confirmation-banner', banner);

  await page.goto(
    `/confirm-email?key=${encodeURIComponent(await waitForConfirmationKey(account.email))}`,
  );
  await shoot(page, 'email-confirmation-open');
  await page.getByRole('button', { name: 'Confirm e-mail address' }).click();
  await expect(page.getByRole('status')).toContainText('Your e-mail address is confirmed.');
  await shoot(page, 'email-confirmation-done');

  await page.goto('/account');
  await page.getByRole('button', { name: 'Change e-mail address' }).click();
  await page.getByRole('textbox', { name: 'Email' }).fill(newAccountDetails().email);
  await shoot(page, 'email-change-form', page.getByRole('region', { name: 'Profile' }));
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText(/waiting for confirmation/)).toBeVisible();
  await shoot(page, 'email-change-pending', page.getByRole('region', { name: 'Profile' }));

  const visit = new Date();
  visit.setMonth(visit.getMonth() - 7);
  visit.setHours(10, 0, 0, 0);
  const login = await page.request.post(accountPaths.login, {
    data: { login_type: 'native', email: account.email, password: account.password },
  });
  const { access } = tokenPair.parse(await login.json());
  await page.request.post(appointmentPaths.list, {
    headers: { authorization: `Bearer ${access}` },
    data: { appointment_date: visit.toISOString(), note: 'Filling' },
  });
  await page.goto('/appointments');
  const section = page.getByRole('region', { name: 'Check-up reminder' });
  await section.getByRole('radio', { name: 'Every 6 months' }).click();
  await section.getByRole('checkbox', { name: 'SMS' }).click();
  await section.getByRole('button', { name: 'Save reminder' }).click();
  await expect(section.getByText('Saved.')).toBeVisible();
  await shoot(page, 'check-up-recall', section);
});

import { Secret, TOTP } from 'otpauth';
import { expect, logIn, submitLogin, test } from './support/fixtures';
import { checkScreen } from './support/layout-checks';
import { mailTo } from './support/outbox';

/** What an authenticator app holding `secret` shows at `at` (the same library as the server). */
const codeAt = (secret: string, at: number) =>
  new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: at });

test('two-step verification: turn it on from the Profile, then log in with a code and with a recovery code', async ({
  page,
  account,
}) => {
  test.setTimeout(300_000);
  await logIn(page, account);
  await page.getByRole('link', { name: `Hi, ${account.username}` }).click();
  const section = page.getByRole('region', { name: 'Two-step verification' });
  let secret = '';
  let recoveryCodes: string[] = [];

  await test.step('turn on: password, scan, first code, recovery codes', async () => {
    await section.getByRole('button', { name: 'Turn on two-step verification' }).click();
    const prompt = page.getByRole('dialog', { name: 'Confirm with your password' });
    await prompt.getByRole('textbox', { name: 'Password' }).fill(account.password);
    await prompt.getByRole('button', { name: 'Continue' }).click();

    await expect(section.getByRole('img', { name: /QR code/ })).toBeVisible();
    // "Scanning": the key under the QR code, as a member would type it into the app.
    secret = (await section.getByTestId('totp-secret').innerText()).replace(/\s/g, '');
    await checkScreen(page, 'Profile, turning on two-step verification');
    await section.getByRole('textbox', { name: 'Code' }).fill(codeAt(secret, Date.now()));
    await section.getByRole('button', { name: 'Turn on', exact: true }).click();

    await expect(section.getByText('Save your recovery codes')).toBeVisible();
    await expect(section.getByTestId('recovery-code')).toHaveCount(10);
    recoveryCodes = await section.getByTestId('recovery-code').allInnerTexts();
    await checkScreen(page, 'Profile, recovery codes');
    await section.getByRole('button', { name: 'I have saved my recovery codes' }).click();
    await expect(section).toContainText('Two-step verification is on');
    await expect(section).toContainText('10 of 10 recovery codes left');
    await expect
      .poll(async () => (await mailTo(account.email)).map((mail) => mail.subject))
      .toContain('Two-step verification is on for your Dental Companion account');
  });

  const logOut = async () => {
    await page.getByRole('link', { name: 'Home', exact: true }).click();
    await page.getByRole('button', { name: 'Log out' }).click();
    await expect(page).toHaveURL(/\/login$/);
  };
  const codeField = page.getByRole('textbox', { name: 'Code' });

  await test.step('log in: the password, then a code from the app', async () => {
    await logOut();
    await submitLogin(page, account);
    await expect(codeField).toBeVisible();
    await checkScreen(page, 'Login, code step');
    await codeField.fill('12345');
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByText(/This code is not valid/)).toBeVisible();
    // The code of the next 30 seconds: the one that turned the app on is used up.
    await codeField.fill(codeAt(secret, Date.now() + 30_000));
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByRole('heading', { name: 'You are ready to go!' })).toBeVisible();
  });

  await test.step('log in with a recovery code instead', async () => {
    await logOut();
    await submitLogin(page, account);
    await codeField.fill(recoveryCodes[0] ?? '');
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByRole('heading', { name: 'You are ready to go!' })).toBeVisible();
    await page.getByRole('link', { name: `Hi, ${account.username}` }).click();
    await expect(section).toContainText('9 of 10 recovery codes left');
  });
});

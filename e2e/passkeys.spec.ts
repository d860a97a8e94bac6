import { termsNotAgreedMessage } from '@dental/contracts';
import { closeDialog, expect, logIn, loginTermsLabel, submitLogin, test } from './support/fixtures';
import { checkScreen } from './support/layout-checks';
import { mailTo } from './support/outbox';

test('a passkey added on the Profile signs the member in and can be removed', async ({
  page,
  account,
}) => {
  test.setTimeout(240_000);
  // Chromium's virtual authenticator stands in for the device's fingerprint or screen lock: it
  // keeps discoverable credentials and verifies the user without a prompt.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  const passkeys = page.getByRole('list', { name: 'Your passkeys' });

  await test.step('add and name a passkey on the Profile', async () => {
    await logIn(page, account);
    await page.getByRole('link', { name: `Hi, ${account.username}` }).click();
    await expect(page.getByRole('heading', { name: 'Passkeys' })).toBeVisible();
    await expect(page.getByText('You have no passkeys yet.')).toBeVisible();
    await page.getByRole('textbox', { name: 'Passkey name' }).fill('Work laptop');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await expect(passkeys.getByRole('listitem')).toHaveCount(1);
    await expect(passkeys).toContainText('Work laptop');
    await expect(passkeys).toContainText('not used yet');
    await checkScreen(page, 'Profile with a passkey');
    await expect
      .poll(async () => (await mailTo(account.email)).map((mail) => mail.subject))
      .toContain('A passkey was added to your Dental Companion account');
  });

  await test.step('sign out, and sign in with the passkey', async () => {
    await page.getByRole('link', { name: 'Home', exact: true }).click();
    await page.getByRole('button', { name: 'Log out' }).click();
    await expect(page).toHaveURL(/\/login$/);
    // The e-mail field's autofill offers the passkey at once (the virtual authenticator picks it
    // without a click), but the terms are not ticked yet: nothing is signed in.
    const refusal = page.getByRole('dialog', { name: 'Log in failed' });
    await expect(refusal).toContainText(termsNotAgreedMessage);
    await closeDialog(refusal);
    await expect(page.getByRole('textbox', { name: 'Email', exact: true })).toHaveAttribute(
      'autocomplete',
      'username webauthn',
    );
    await checkScreen(page, 'Login with the passkey button');
    await page.getByRole('checkbox', { name: loginTermsLabel }).check();
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await expect(page.getByRole('heading', { name: 'You are ready to go!' })).toBeVisible();
  });

  await test.step('log in with the password, and answer the second step with the passkey', async () => {
    await page.getByRole('button', { name: 'Log out' }).click();
    await expect(page).toHaveURL(/\/login$/);
    // The autofill offers the passkey again before the terms are ticked.
    const refusal = page.getByRole('dialog', { name: 'Log in failed' });
    await expect(refusal).toContainText(termsNotAgreedMessage);
    await closeDialog(refusal);
    await submitLogin(page, account);
    await expect(page.getByRole('button', { name: 'Verify' })).toBeVisible();
    await checkScreen(page, 'Login code step with the passkey button');
    await page.getByRole('button', { name: 'Use a passkey instead' }).click();
    await expect(page.getByRole('heading', { name: 'You are ready to go!' })).toBeVisible();
  });

  await test.step('remove the passkey', async () => {
    await page.getByRole('link', { name: `Hi, ${account.username}` }).click();
    await expect(passkeys).toContainText('last used');
    await page.getByRole('button', { name: 'Remove passkey Work laptop' }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove passkey' });
    await confirm.getByRole('button', { name: 'Remove', exact: true }).click();
    await expect(page.getByText('You have no passkeys yet.')).toBeVisible();
    await expect
      .poll(async () => (await mailTo(account.email)).map((mail) => mail.subject))
      .toContain('A passkey was removed from your Dental Companion account');
  });
});

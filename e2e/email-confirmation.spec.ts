import { expect, logIn, newAccountDetails, registerAccount, test } from './support/fixtures';
import { checkScreen, phoneViewport } from './support/layout-checks';
import { mailTo, waitForConfirmationKey } from './support/outbox';

// docs/decisions/email-confirmation.md: the account works at once; a banner asks to confirm the
// address and sends the link again; the link confirms it; a change of address waits for the new
// one's confirmation and the old one is told.
test.describe('on a phone with touch', () => {
  test.use({ viewport: phoneViewport, hasTouch: true });

  test('a new member confirms the address from the banner’s e-mail, then changes it', async ({
    page,
    request,
  }) => {
    test.setTimeout(180_000);
    const account = await registerAccount(request, { confirmed: false });
    await logIn(page, account);
    const banner = page.getByRole('status', { name: 'E-mail confirmation' });
    await expect(banner).toContainText(
      `Please confirm your e-mail address ${account.email}: open the link we sent there. Reminders and notices are sent only to a confirmed address.`,
    );
    await checkScreen(page, 'home with the confirmation banner');

    const first = await waitForConfirmationKey(account.email);
    await banner.getByRole('button', { name: 'Send the e-mail again' }).tap();
    await expect(banner).toContainText('Sent. The newest link is the one that works.');
    await expect.poll(() => waitForConfirmationKey(account.email)).not.toBe(first);
    const key = await waitForConfirmationKey(account.email);

    await page.goto(`/confirm-email?key=${encodeURIComponent(key)}`);
    await expect(page.getByRole('heading', { name: 'Confirm your e-mail address' })).toBeVisible();
    await page.getByRole('button', { name: 'Confirm e-mail address' }).tap();
    await expect(page.getByRole('status')).toContainText('Your e-mail address is confirmed.');
    await checkScreen(page, 'e-mail confirmed');
    await page.getByRole('link', { name: 'Go to Home' }).tap();
    await expect(page.getByRole('heading', { name: 'You are ready to go!' })).toBeVisible();
    await expect(banner).toBeHidden();

    // A change of address: the account keeps the old one until the new one is confirmed.
    const newEmail = newAccountDetails().email;
    await page.goto('/account');
    await page.getByRole('button', { name: 'Change e-mail address' }).tap();
    const field = page.getByRole('textbox', { name: 'Email' });
    await field.fill(newEmail);
    await page.getByRole('button', { name: 'Save' }).tap();
    const passwordDialog = page.getByRole('dialog');
    const pending = page.getByText(`Changing to ${newEmail}, waiting for confirmation`);
    // A slow run may pass the one-minute re-check window of the e2e server.
    await expect(pending.or(passwordDialog)).toBeVisible();
    if (await passwordDialog.isVisible()) {
      await passwordDialog.getByLabel('Password').fill(account.password);
      await passwordDialog.getByRole('button', { name: 'Change e-mail' }).tap();
    }
    await expect(pending).toBeVisible();
    await expect(banner).toContainText(
      `Please confirm your new e-mail address ${newEmail}: open the link we sent there. Until then your account keeps ${account.email}.`,
    );
    await checkScreen(page, 'profile with a change of address waiting');
    await expect
      .poll(async () => (await mailTo(account.email)).map((mail) => mail.subject))
      .toContainEqual(expect.stringMatching(/e-mail address is being changed$/));

    await page.goto(
      `/confirm-email?key=${encodeURIComponent(await waitForConfirmationKey(newEmail))}`,
    );
    await page.getByRole('button', { name: 'Confirm e-mail address' }).tap();
    await expect(page.getByRole('status')).toContainText('Your e-mail address is confirmed.');
    await page.goto('/account');
    await expect(page.getByText(newEmail, { exact: true })).toBeVisible();
    await expect(banner).toBeHidden();
  });
});

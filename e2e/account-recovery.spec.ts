import { readFile } from 'node:fs/promises';
import { expect, logIn, test } from './support/fixtures';
import { checkScreen, phoneViewport } from './support/layout-checks';
import { mailTo } from './support/outbox';
import { resetPassword } from './support/password-reset';
import { turnOnTwoStep } from './support/two-step';

// Recovery (docs/decisions/second-factor.md, password-reset.md): recovery codes can be copied, downloaded and printed; a used reset link says
// it is invalid when it opens; a reset sends a 'password was changed' e-mail.
test.describe('on a phone with touch', () => {
  test.use({
    viewport: phoneViewport,
    hasTouch: true,
    permissions: ['clipboard-read', 'clipboard-write'],
  });

  test('recovery codes: copy, download and print', async ({ page, account }) => {
    test.setTimeout(180_000);
    await logIn(page, account);
    await page.getByRole('link', { name: `Hi, ${account.username}` }).tap();
    const section = await turnOnTwoStep(page, account.password, (button) => button.tap());
    await expect(section.getByTestId('recovery-code')).toHaveCount(10);
    const codes = await section.getByTestId('recovery-code').allInnerTexts();
    await checkScreen(page, 'recovery codes');

    await section.getByRole('button', { name: 'Copy codes' }).tap();
    await expect(section.getByRole('status')).toHaveText(
      'The recovery codes are copied. Paste them somewhere safe.',
    );
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    for (const one of codes) expect(copied).toContain(one);

    const download = page.waitForEvent('download');
    await section.getByRole('button', { name: 'Download codes' }).tap();
    const file = await download;
    expect(file.suggestedFilename()).toBe('recovery-codes.txt');
    const saved = await readFile(await file.path(), 'utf8');
    expect(saved.split('\n').filter((line) => codes.includes(line))).toEqual(codes);
    expect(saved).not.toContain(account.email);

    // Print opens the browser's dialog; here it only records that it was asked for.
    await page.evaluate(() => {
      window.print = () => {
        document.body.dataset.printed = 'yes';
      };
    });
    await section.getByRole('button', { name: 'Print codes' }).tap();
    await expect(page.locator('body')).toHaveAttribute('data-printed', 'yes');
    // On paper: the codes alone, as in the download, without the page around them.
    await page.emulateMedia({ media: 'print' });
    const sheet = page.getByTestId('recovery-codes-sheet');
    await expect(sheet).toBeVisible();
    expect((await sheet.innerText()).trim()).toBe(saved.trim());
    await expect(page.getByRole('link', { name: 'Home', exact: true })).toBeHidden();
    await expect(page.getByTestId('recovery-code').first()).toBeHidden();
    await page.emulateMedia({ media: 'screen' });

    await section.getByRole('button', { name: 'I have saved my recovery codes' }).tap();
    await expect(section).toContainText('10 of 10 recovery codes left');
  });

  test('a reset sends a password-changed e-mail, and the used link says so on open', async ({
    page,
    account,
    baseURL,
  }) => {
    test.setTimeout(180_000);
    const { link, newPassword } = await resetPassword(page, account, baseURL ?? '', (button) =>
      button.tap(),
    );

    // The e-mail that says the password was changed: no password, no link key in it.
    const changed = async () =>
      (await mailTo(account.email)).find(
        (mail) => mail.subject === 'Your Dental Companion password was changed',
      );
    await expect.poll(async () => (await changed())?.text ?? '').toContain('password reset link');
    const mail = await changed();
    const key = link.searchParams.get('key') ?? '';
    for (const secret of [newPassword, key]) {
      expect(mail?.text).not.toContain(secret);
      expect(mail?.html).not.toContain(secret);
      expect(mail?.subject).not.toContain(secret);
    }
    expect(mail?.subject).not.toContain(account.email);

    // The used link, opened again: told at once, with nothing to type.
    await page.goto(link.toString());
    await expect(page.getByRole('alert')).toContainText(
      'This password reset link is invalid, has already been used or has expired.',
    );
    await expect(page.getByRole('textbox', { name: 'New Password', exact: true })).toHaveCount(0);
    await checkScreen(page, 'used reset link');
    await page.getByRole('link', { name: 'Forgot password' }).tap();
    await expect(page).toHaveURL(/\/forget-password$/);
  });
});

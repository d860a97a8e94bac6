import { logIn, test } from '../support/fixtures';
import { resetPassword } from '../support/password-reset';
import { turnOnTwoStep } from '../support/two-step';
import { shoot } from './shoot';

test('recovery codes and a used reset link', async ({ page, account, baseURL }) => {
  test.setTimeout(180_000);
  await logIn(page, account);
  await page.getByRole('link', { name: `Hi, ${account.username}` }).click();
  const section = await turnOnTwoStep(page, account.password);
  await shoot(page, 'recovery-codes', section.getByRole('button', { name: 'Copy codes' }));
  await page.emulateMedia({ media: 'print' });
  await shoot(page, 'recovery-codes-print');
  await page.emulateMedia({ media: 'screen' });

  await page.getByRole('link', { name: 'Home', exact: true }).click();
  await page.getByRole('button', { name: 'Log out' }).click();
  const { link } = await resetPassword(page, account, baseURL ?? '');
  await page.goto(link.toString());
  await page.getByRole('alert').waitFor();
  await shoot(page, 'reset-link-used');
});

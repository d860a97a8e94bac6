import { logIn, test } from '../support/fixtures';
import { shoot } from './shoot';

test('Download my data', async ({ page, account }) => {
  test.setTimeout(120_000);
  await logIn(page, account);
  await page.goto('/account');
  const section = page.getByRole('region', { name: 'Download my data' });
  await section.getByRole('button', { name: 'Download my data' }).click();
  await section.getByRole('link', { name: /^Download your archive/ }).waitFor({ timeout: 60_000 });
  await shoot(page, 'download-my-data', section);
});

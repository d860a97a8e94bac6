import { accountPaths, dataExport, dataExportPaths, tokenPair } from '@dental/contracts';
import type { APIRequestContext } from '@playwright/test';
import { expect, logIn, registerAccount, test, type TestAccount } from './support/fixtures';
import { checkScreen } from './support/layout-checks';
import { storeXray } from './support/stored-photos';

/** 'Download my data' for the account through the API: the zip's bytes. */
async function exportedZip(request: APIRequestContext, account: TestAccount): Promise<Buffer> {
  const login = await request.post(accountPaths.login, {
    data: { login_type: 'native', email: account.email, password: account.password },
  });
  const { access } = tokenPair.parse(await login.json());
  const headers = { authorization: `Bearer ${access}` };
  const started = await request.post(dataExportPaths.root, { headers });
  expect(started.status(), await started.text()).toBe(202);
  const { id } = dataExport.pick({ id: true }).parse(await started.json());
  const latest: { link: string | null } = { link: null };
  await expect
    .poll(
      async () => {
        const answer = dataExport.parse(
          await (await request.get(dataExportPaths.one(id), { headers })).json(),
        );
        latest.link = answer.download_url;
        return answer.status;
      },
      { timeout: 60_000 },
    )
    .toBe('done');
  const download = await request.get(latest.link ?? '');
  expect(download.status()).toBe(200);
  return download.body();
}

test.describe('on a phone', () => {
  test.use({ viewport: { width: 360, height: 740 }, hasTouch: true });

  test('Import a record brings another member’s export in, with its progress and what it added', async ({
    page,
    request,
    account,
  }) => {
    // The record to move: an X-ray with a note, exported by its first owner.
    await storeXray(request, account, 'Lower left molar', '2025-04-02');
    const zip = await exportedZip(request, account);

    const newcomer = await registerAccount(request);
    await logIn(page, newcomer);
    await page.goto('/account');
    const section = page.getByRole('region', { name: 'Import a record' });
    const choosing = page.waitForEvent('filechooser');
    await section.getByLabel('Import a record').tap();
    await (
      await choosing
    ).setFiles({ name: 'dental-record.zip', mimeType: 'application/zip', buffer: zip });
    await section.getByRole('button', { name: 'Import this file' }).tap();
    // The job's progress, then what it brought in.
    await expect(section.getByText(/^Importing your record: \d+%\.$/)).toBeVisible();
    await expect(section.getByText('Import finished')).toBeVisible({ timeout: 60_000 });
    const imported = section.getByRole('list', { name: 'Imported' });
    await expect(imported).toContainText('X-rays: 1');
    await expect(imported).toContainText('Photos: 0');
    await expect(section.getByText('Nothing was already in your record.')).toBeVisible();
    await checkScreen(page, 'Import a record, finished');

    await page.goto('/oral-photo');
    await page.getByRole('button', { name: '2025-04-02 X-ray' }).tap();
    await expect(page.getByRole('img', { name: 'X-ray of 2025-04-02' })).toBeVisible();
    await expect(page.getByText('Lower left molar')).toBeVisible();
  });
});

import { accountPaths, dataExport, dataExportPaths, tokenPair } from '@dental/contracts';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect, logIn, registerAccount, type TestAccount } from './fixtures';

/** 'Download my data' for the account through the API: the zip's bytes. */
export async function exportedZip(
  request: APIRequestContext,
  account: TestAccount,
): Promise<Buffer> {
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

/**
 * A new member, signed in on the Profile, with the zip chosen in 'Import a record' through the
 * file chooser (`pick` taps or clicks the field); answers the section.
 */
export async function newMemberChoosing(
  page: Page,
  request: APIRequestContext,
  zip: Buffer,
  pick: (field: Locator) => Promise<void>,
): Promise<Locator> {
  await logIn(page, await registerAccount(request));
  await page.goto('/account');
  const section = page.getByRole('region', { name: 'Import a record' });
  const choosing = page.waitForEvent('filechooser');
  await pick(section.getByLabel('Import a record'));
  await (
    await choosing
  ).setFiles({ name: 'dental-record.zip', mimeType: 'application/zip', buffer: zip });
  return section;
}

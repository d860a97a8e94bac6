import { readFile } from 'node:fs/promises';
import { fromBuffer, type Entry } from 'yauzl';
import { dataExportBundlePath } from '@dental/contracts';
import { expect, logIn, test } from './support/fixtures';
import { checkScreen } from './support/layout-checks';
import { mailTo } from './support/outbox';
import { storeXray } from './support/stored-photos';

/** The names of the entries of a zip file. */
function entryNames(bytes: Buffer): Promise<string[]> {
  return new Promise((resolve, reject) => {
    fromBuffer(bytes, (error, zip) => {
      if (error !== null) {
        reject(error);
        return;
      }
      const names: string[] = [];
      zip.on('entry', (entry: Entry) => {
        names.push(entry.fileName);
      });
      zip.on('end', () => {
        resolve(names);
      });
      zip.on('error', reject);
    });
  });
}

// On a phone, with the screen also checked at desktop width: the section is the same at both.
test.describe('on a phone', () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test('Download my data builds an archive with the X-ray and a FHIR Bundle, then e-mails the member', async ({
    page,
    request,
    account,
  }) => {
    await storeXray(request, account);

    await logIn(page, account);
    await page.goto('/account');
    const section = page.getByRole('region', { name: 'Download my data' });
    await section.getByRole('button', { name: 'Download my data' }).click();
    const link = section.getByRole('link', { name: /^Download your archive/ });
    await expect(link).toBeVisible({ timeout: 60_000 });
    await expect(section.getByText(/Available until/)).toBeVisible();
    await checkScreen(page, 'Download my data');

    const downloading = page.waitForEvent('download');
    await link.click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^dental-record-\d{4}-\d{2}-\d{2}\.zip$/);
    const names = await entryNames(await readFile(await download.path()));
    expect(names).toEqual(
      expect.arrayContaining([
        dataExportBundlePath,
        'index.html',
        expect.stringMatching(/^files\/x-rays\//),
      ]),
    );

    await expect
      .poll(async () => (await mailTo(account.email)).map((mail) => mail.subject ?? ''))
      .toContainEqual(expect.stringMatching(/ready to download/));
    // Once ready, the button offers a fresh copy instead.
    await expect(section.getByRole('button', { name: 'Make a new copy' })).toBeEnabled();
  });
});

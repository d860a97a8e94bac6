import { readFile } from 'node:fs/promises';
import { fromBuffer, type Entry } from 'yauzl';
import {
  accountPaths,
  dataExportBundlePath,
  medicalRecordPaths,
  tokenPair,
} from '@dental/contracts';
import { expect, logIn, test } from './support/fixtures';
import { localDate } from './support/dates';
import { checkScreen } from './support/layout-checks';
import { mailTo } from './support/outbox';
import { detectRedSquare, openForm } from './support/red-square';
import { storeXray } from './support/stored-photos';

/** The entries of a zip file, by name, with their bytes. */
function zipEntries(bytes: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    fromBuffer(bytes, { lazyEntries: true }, (error, zip) => {
      if (error !== null) {
        reject(error);
        return;
      }
      const entries = new Map<string, Buffer>();
      zip.on('entry', (entry: Entry) => {
        zip.openReadStream(entry, (opened, stream) => {
          if (opened !== null) {
            reject(opened);
            return;
          }
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('error', reject);
          stream.on('end', () => {
            entries.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => {
        resolve(entries);
      });
      zip.on('error', reject);
      zip.readEntry();
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
    // A phone's file name, one long word: the archive's page scrolled sideways on such names.
    const login = await request.post(accountPaths.login, {
      data: { login_type: 'native', email: account.email, password: account.password },
    });
    const { access } = tokenPair.parse(await login.json());
    const pdf = Buffer.from('%PDF-1.4\n%%EOF\n').toString('base64');
    const stored = await request.post(medicalRecordPaths.list, {
      headers: { authorization: `Bearer ${access}` },
      data: {
        title: 'Insurance card',
        record_date: localDate(),
        medical_files: [
          {
            file_name:
              'Insurance_card_front_and_back_scanned_2026-11-28_at_14.32.05_high_resolution.pdf',
            file_link: `data:application/pdf;base64,${pdf}`,
          },
        ],
      },
    });
    expect(stored.status(), await stored.text()).toBe(201);

    await logIn(page, account);
    // A Dental AI result, so that the archive's page says its findings.
    await openForm(page);
    await detectRedSquare(page);
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
    const entries = await zipEntries(await readFile(await download.path()));
    expect([...entries.keys()]).toEqual(
      expect.arrayContaining([
        dataExportBundlePath,
        'index.html',
        expect.stringMatching(/^files\/x-rays\//),
      ]),
    );

    // The archive's own page reads on a phone: no sideways scrolling (it was 621 px wide at
    // 360), and the Dental AI's findings in words rather than pixel corners.
    const index = await page.context().newPage();
    await index.setContent(entries.get('index.html')?.toString('utf8') ?? '');
    const results = index.locator('section', {
      has: index.getByRole('heading', { name: 'Dental AI results' }),
    });
    await expect(results.getByRole('listitem').last()).toHaveText(
      /^red: an area in the (top|middle|bottom) (left|centre|right) of the image \(the model was \d+% sure\)$|^red: an area in the centre of the image \(the model was \d+% sure\)$/,
    );
    await expect(results).not.toContainText('pixels');
    expect(await index.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      360,
    );
    await checkScreen(index, 'the archive’s index.html');
    await index.close();

    await expect
      .poll(async () => (await mailTo(account.email)).map((mail) => mail.subject ?? ''))
      .toContainEqual(expect.stringMatching(/ready to download/));
    // Once ready, the button offers a fresh copy instead.
    await expect(section.getByRole('button', { name: 'Make a new copy' })).toBeEnabled();
  });
});

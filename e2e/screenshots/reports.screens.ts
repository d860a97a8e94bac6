import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import sharp from 'sharp';
import { expect, logIn, test } from '../support/fixtures';
import { buyGold } from '../support/reports';
import { shoot } from './shoot';

const pdfjs = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));

// The Reports screen with a report of each kind ready, and the first page of each PDF drawn by
// pdf.js in the browser, the way a reader shows it (docs/product/reports.md).
test('Reports and the first page of each report', async ({ page, account }) => {
  test.setTimeout(150_000);
  await logIn(page, account);
  await buyGold(page);
  await page.goto('/reports');
  const reports = page.getByRole('region', { name: 'Your reports' });
  await page.getByRole('button', { name: 'Generate' }).click();
  await expect(reports.getByText('Ready')).toHaveCount(1, { timeout: 60_000 });
  await page.getByRole('radio', { name: /Receipts and history summary report/ }).check();
  await page.getByRole('button', { name: 'Generate' }).click();
  await expect(reports.getByText('Ready')).toHaveCount(2, { timeout: 60_000 });
  await shoot(page, 'reports');

  const pdfs: Buffer[] = [];
  for (const index of [0, 1]) {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      reports.getByRole('link', { name: 'Download' }).nth(index).click(),
    ]);
    pdfs.push(await readFile(await download.path()));
  }
  // A page of our own on an address the app's security headers do not cover, serving pdf.js.
  await page.route('http://pdf.test/**', async (route) => {
    const name = new URL(route.request().url()).pathname.slice(1);
    if (name === '') {
      await route.fulfill({
        contentType: 'text/html',
        body: `<!doctype html><canvas></canvas><script type="module">
          import * as pdfjs from '/pdf.mjs';
          pdfjs.GlobalWorkerOptions.workerSrc = '/pdf.worker.mjs';
          window.draw = async (base64) => {
            const data = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
            const page = await (await pdfjs.getDocument({ data }).promise).getPage(1);
            const viewport = page.getViewport({ scale: 1.5 });
            const canvas = document.querySelector('canvas');
            canvas.width = viewport.width;
            canvas.height = viewport.height;
            await page.render({ canvas, viewport }).promise;
          };
        </script>`,
      });
      return;
    }
    await route.fulfill({
      contentType: 'text/javascript',
      body: await readFile(path.join(pdfjs, 'legacy/build', name)),
    });
  });
  await page.goto('http://pdf.test/');
  await page.waitForFunction(() => 'draw' in window);
  // The list is newest first: the summary, then the treatment history.
  for (const [index, name] of ['report-summary', 'report-treatment-history'].entries()) {
    const base64 = pdfs[index]?.toString('base64') ?? '';
    await page.evaluate(async (data) => {
      await (window as unknown as { draw: (data: string) => Promise<void> }).draw(data);
    }, base64);
    await sharp(await page.locator('canvas').screenshot({ type: 'png' }))
      .png({ palette: true, compressionLevel: 9 })
      .toFile(`docs/screenshots/${name}-page-1.png`);
  }
});
